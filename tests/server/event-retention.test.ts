/**
 * Event-log retention: the daily `events.prune` job deletes events older than EVENTS_RETENTION_DAYS (keeping
 * each workspace's newest, so seqs never repeat), and a client resuming from a pruned seq gets `event: reset`.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { rowsOf } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { appendEvent, readEvents } from '../../src/server/repositories/event-log';
import { PRUNE_EVENTS_JOB } from '../../src/server/realtime/retention';
import { StreamReset } from '../../src/shared/schemas/events';
import type { Contact } from '../../src/shared';
import { type Seeded, seedWorkspace } from '../support/fixtures';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let other: Session;
let a: Seeded;
let contact: Contact;

beforeAll(async () => {
  ta = await buildTestApp({ realtime: { heartbeatMs: 15_000, retentionDays: 30 } });
  await ta.app.ready();
  admin = await ta.newAdmin('Retention A');
  other = await ta.newAdmin('Retention B');
  a = await seedWorkspace(ta, admin);
  contact = (await ta.call('GET', `/workspace/${a.workspaceId}/contacts`, { token: admin.token })).json().items[0];
});
afterAll(async () => {
  await ta?.close();
});

const append = (workspaceId: string, name: string) =>
  appendEvent(ta.db, workspaceId, 'contact.updated', { contact: { ...contact, workspaceId, name } });

/** Makes a workspace's events up to `seq` look `days` old. */
async function age(workspaceId: string, upToSeq: number, days: number) {
  await ta.db.execute(sql`
    update ${t.workspaceEvents} set created_at = now() - make_interval(days => ${days})
    where workspace_id = ${workspaceId} and seq <= ${upToSeq}`);
}

const seqsOf = async (workspaceId: string) => (await readEvents(ta.db, workspaceId, 0, 10_000)).map((e) => e.seq);

/** Runs the pruning job now, as the daily schedule would. */
async function prune() {
  await ta.app.parley.jobs.send(PRUNE_EVENTS_JOB, {});
  await ta.app.parley.jobs.drain();
}

/** Opens the stream and reads SSE frames until `count` frames with an event name have arrived. */
type Frame = { id: string | undefined; event: string; data: unknown };
/** The stream's first `count` frames; `onFrame` hears each as it comes (to act once the stream has said something). */
async function frames(workspaceId: string, headers: Record<string, string>, count: number, onFrame?: (f: Frame) => void) {
  const controller = new AbortController();
  const res = await ta.app.inject({
    method: 'GET',
    url: `/workspace/${workspaceId}/events`,
    headers: { authorization: `Bearer ${admin.token}`, ...headers },
    payloadAsStream: true,
    signal: controller.signal,
  });
  expect(res.statusCode).toBe(200);
  let body = '';
  const parsed: Frame[] = [];
  const deadline = setTimeout(() => controller.abort(), 15_000);
  try {
    for await (const chunk of res.stream()) {
      body += String(chunk);
      let end: number;
      while ((end = body.indexOf('\n\n')) >= 0) {
        const frame = body.slice(0, end);
        body = body.slice(end + 2);
        const field = (name: string) => frame.match(new RegExp(`^${name}: (.*)$`, 'm'))?.[1];
        const event = field('event');
        if (!event) continue;
        const f: Frame = { id: field('id'), event, data: JSON.parse(field('data') ?? 'null') };
        parsed.push(f);
        onFrame?.(f);
      }
      if (parsed.length >= count) break;
    }
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return parsed;
}

describe('event-log retention', () => {
  it('schedules the pruning job at start-up, to run again a day after each run', async () => {
    await ta.app.parley.jobs.drain();
    const rows = rowsOf<{ state: string; in_hours: number }>(
      await ta.db.execute(sql`
        select state::text as state, extract(epoch from (start_after - now())) / 3600 as in_hours
        from pgboss.job where name = ${PRUNE_EVENTS_JOB} and state = 'created'`),
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].in_hours)).toBeGreaterThan(23);
    expect(Number(rows[0].in_hours)).toBeLessThanOrEqual(24);
  });

  it('deletes only events older than EVENTS_RETENTION_DAYS, and keeps each workspace’s newest', async () => {
    const ws = admin.workspaceId;
    for (let i = 0; i < 5; i++) await append(ws, `old ${i}`);
    const seqs = await seqsOf(ws);
    const oldUpTo = seqs.at(-1)!;
    for (let i = 0; i < 3; i++) await append(ws, `recent ${i}`);
    await age(ws, oldUpTo, 31);
    // Just inside the retention period: kept.
    await age(ws, seqs[0], 29);
    await ta.db.execute(sql`update ${t.workspaceEvents} set created_at = now() - interval '31 days' where workspace_id = ${ws} and seq < ${seqs[0]}`);

    // A quiet workspace whose every event is old keeps its newest one.
    const quiet = other.workspaceId;
    await append(quiet, 'q1');
    await append(quiet, 'q2');
    const quietSeqs = await seqsOf(quiet);
    await age(quiet, quietSeqs.at(-1)!, 90);

    await prune();

    const kept = await seqsOf(ws);
    expect(kept).toEqual([seqs[0], oldUpTo + 1, oldUpTo + 2, oldUpTo + 3]);
    expect(await seqsOf(quiet)).toEqual([quietSeqs.at(-1)]);
    // The next event continues the sequence.
    const next = await append(quiet, 'q3');
    expect(next.seq).toBe(quietSeqs.at(-1)! + 1);
  });

  it('answers a resume from a pruned seq with event: reset, then streams on from the newest event', async () => {
    const ws = a.workspaceId;
    for (let i = 0; i < 4; i++) await append(ws, `before ${i}`);
    const seqs = await seqsOf(ws);
    await age(ws, seqs.at(-2)!, 40);
    await prune();
    const oldest = (await seqsOf(ws))[0];
    expect(oldest).toBe(seqs.at(-1));
    const newest = oldest;

    const got = frames(ws, { 'last-event-id': String(seqs[0]) }, 2);
    // After the reset, live events follow as usual.
    setTimeout(() => void append(ws, 'after reset'), 300);
    const [reset, live] = await got;
    expect(reset.event).toBe('reset');
    expect(reset.id).toBe(String(newest));
    expect(StreamReset.parse(reset.data)).toEqual({ reason: 'pruned', seq: newest });
    expect(live.event).toBe('contact.updated');
    expect(Number(live.id)).toBe(newest + 1);
  });

  it('replays from a seq that is still kept, without a reset', async () => {
    const ws = a.workspaceId;
    const from = (await seqsOf(ws)).at(-1)!;
    await append(ws, 'kept 1');
    await append(ws, 'kept 2');
    const got = await frames(ws, { 'last-event-id': String(from) }, 2);
    expect(got.map((f) => f.event)).toEqual(['contact.updated', 'contact.updated']);
    expect(got.map((f) => Number(f.id))).toEqual([from + 1, from + 2]);
    expect(got.map((f) => (f.data as { payload: { contact: { name: string } } }).payload.contact.name)).toEqual(['kept 1', 'kept 2']);
  });

  it('tells a stream opened without a resume point where it starts, so a client that hears nothing can resume', async () => {
    const ws = a.workspaceId;
    const newest = (await seqsOf(ws)).at(-1)!;
    // Written once the stream has said where it starts (a write before that would be its start).
    let appended: Promise<unknown> | undefined;
    const got = frames(ws, {}, 2, (f) => {
      if (f.event === 'position') appended = append(ws, 'after opening');
    });
    const [position, live] = await got;
    await appended;
    expect(position).toEqual({ id: String(newest), event: 'position', data: null });
    expect(live.event).toBe('contact.updated');
    expect(Number(live.id)).toBe(newest + 1);
    // A resumed stream is not told again: it already knows where it is.
    await append(ws, 'resumed');
    const resumed = await frames(ws, { 'last-event-id': String(newest + 1) }, 1);
    expect(resumed.map((f) => [f.event, Number(f.id)])).toEqual([['contact.updated', newest + 2]]);
  });

  it('reads EVENTS_RETENTION_DAYS from the environment (default 30)', () => {
    expect(loadConfig({} as NodeJS.ProcessEnv).realtime.retentionDays).toBe(30);
    expect(loadConfig({ EVENTS_RETENTION_DAYS: '7' } as NodeJS.ProcessEnv).realtime.retentionDays).toBe(7);
    expect(() => loadConfig({ EVENTS_RETENTION_DAYS: '0' } as NodeJS.ProcessEnv)).toThrow();
  });
});
