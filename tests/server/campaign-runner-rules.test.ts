/**
 * The campaign runner called directly (the `runner` part of the mutation score, seconds per mutant):
 * the real repositories on a fresh database, a stand-in outbound path that records each send and answers a wamid
 * or the error a test chooses, a clock the test sets; no app, no job queue, no sandbox. What each claim sends, to
 * whom and how often; where each outcome leaves the recipient (next step, the same step later, failed, skipped,
 * done) and what it logs; send windows; snapshots written a chunk at a time; completion of runs and one-time
 * campaigns (by the claim, the snapshot and the sweep); and the loops (start, wake, stop). The same rules through
 * the app and the sandbox: campaigns.test.ts, campaign-crash.test.ts, campaign-completion-race.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { badRequest } from '../../src/server/errors';
import { createCampaignRunner, type RunnerOptions } from '../../src/server/campaigns/runner';
import type { Progress } from '../../src/server/campaigns/events';
import { lockUnfinishedSnapshot, releaseClaimed, setRunsStatus } from '../../src/server/repositories/campaign-runs';
import { campaignStatusesApplied } from '../../src/server/campaigns/inbound-hooks';
import type { Outbound } from '../../src/server/messaging/outbound';
import { OutcomeUnknownError, SendInFlightError } from '../../src/server/messaging/send-outcomes';
import type { ServiceDeps } from '../../src/server/services/context';
import { createFileStore, type FileStore } from '../../src/server/storage/file-store';
import { GraphApiError } from '../../src/server/whatsapp/graph-errors';
import { onPostgres, openTestDatabase } from '../support/server';
import { until } from '../support/until';
import { recordingLogger, type LoggedLine } from '../support/recording-logger';

let database: Database;
let dispose: () => Promise<void>;
let files: FileStore;
let dataDir: string;
let ws = '';
let otherWs = '';
let memberId = '';
let accountId = '';
let otherAccountId = '';
let cityAttrId = '';
let tplId = '';
let followUpId = '';
let pendingTplId = '';
let mediaTplId = '';
let otherTplId = '';
let segmentId = '';

const logged: LoggedLine[] = [];
const logger = () => recordingLogger(logged);

interface SendInput {
  workspaceId: string;
  actor: { type: string; campaignId: string };
  target: { contactId: string; whatsappAccountId: string };
  content: { type: string } & Record<string, unknown>;
  idempotencyKey: string;
}
/** Every send the runner made, in order. */
const sends: SendInput[] = [];
/** What the next sends to a contact answer, in order (then a wamid): an error to throw, or a wamid. */
const script = new Map<string, (Error | string)[]>();
/** Runs inside each send (before its answer): a test looks at the rows while the send is under way. */
let duringSend: ((input: SendInput) => Promise<void>) | null = null;
let wamidSeq = 0;
/**
 * Sends one after another, as a number's pacer hands out slots: each takes its slot when the one before it is
 * over, then checks its claim (what a test does during a send, e.g. a pause, is over before the next slot).
 */
let paced = false;
let lastSlot: Promise<unknown> = Promise.resolve();
async function sendNow(input: SendInput, opts: { beforeRequest?: () => Promise<void> }) {
  await opts.beforeRequest?.();
  sends.push(input);
  if (duringSend) await duringSend(input);
  const next = script.get(input.target.contactId)?.shift();
  if (next instanceof Error) throw next;
  return { wamid: next ?? `wamid.run.${++wamidSeq}`, replayed: false, sendId: `send-${wamidSeq}`, message: {} };
}
const outbound = {
  async send(input: SendInput, opts: { beforeRequest?: () => Promise<void> } = {}) {
    if (!paced) return sendNow(input, opts);
    const before = lastSlot;
    const mine = before.then(() => sendNow(input, opts));
    lastSlot = mine.catch(() => undefined);
    return mine;
  },
} as unknown as Outbound;

const progressCalls: [string, string][] = [];
let progressStops = 0;
/** Campaigns whose progress report fails: the batch that wrote their outcomes fails after its write. */
const brokenProgress = new Set<string>();
const progress = {
  changed: (workspaceId: string, campaignId: string) => {
    if (brokenProgress.has(campaignId)) throw new Error('event store unavailable');
    progressCalls.push([workspaceId, campaignId]);
  },
  stop: () => void progressStops++,
} as unknown as Progress;

/** The runner's clock: null is the real one. */
let clock: Date | null = null;
function deps(): ServiceDeps {
  return { db: database, files, log: logger() } as unknown as ServiceDeps;
}
const runner = (opts: RunnerOptions = {}) => createCampaignRunner(deps(), outbound, progress, { now: () => (clock ? new Date(clock) : new Date()), ...opts });

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-runner-'));
  files = createFileStore({ dataDir, publicUrl: 'http://parley.test', secret: 's' });
  const db = database.db;
  const [w, o] = await db
    .insert(t.workspaces)
    // Their customers are US test numbers and the templates marketing ones: the US skip (on by default) has a test
    // of its own (meta-consent-limits.test.ts).
    .values([{ name: 'Runner Shop', timeZone: 'Asia/Tokyo', skipUsMarketing: false }, { name: 'Other Shop', skipUsMarketing: false }])
    .returning();
  ws = w.id;
  otherWs = o.id;
  const [m] = await db.insert(t.members).values({ uid: `uid-runner-${Date.now()}` }).returning();
  memberId = m.id;
  const accountRow = (workspaceId: string, pnid: string) => ({
    workspaceId,
    phoneNumber: '+14155550000',
    wabaAccountId: 'waba-runner',
    appId: 'app',
    phoneNumberId: pnid,
    tokenCiphertext: 'sealed',
    tokenLast4: '0000',
    memberId,
  });
  [{ id: accountId }] = await db.insert(t.whatsappAccounts).values(accountRow(ws, `pn-runner-${Date.now()}`)).returning();
  [{ id: otherAccountId }] = await db.insert(t.whatsappAccounts).values(accountRow(otherWs, `pn-runner-other-${Date.now()}`)).returning();
  const attrs = await db
    .insert(t.attributes)
    .values([
      { workspaceId: ws, name: 'city', format: 'text' as const, memberId },
      { workspaceId: ws, name: 'batch', format: 'text' as const, memberId },
      { workspaceId: otherWs, name: 'city', format: 'text' as const, memberId },
    ])
    .returning();
  cityAttrId = attrs[0].id;
  const template = (workspaceId: string, whatsappAccountId: string, name: string, status: string, components: unknown[]) => ({
    workspaceId,
    whatsappAccountId,
    name,
    status,
    language: 'en_US',
    category: 'MARKETING',
    components,
    memberId,
  });
  const body = (text: string) => [{ type: 'BODY', text }];
  const tpls = await db
    .insert(t.whatsappTemplates)
    .values([
      template(ws, accountId, 'spring_sale', 'APPROVED', body('Hello from {{1}}: spring sale!')),
      template(ws, accountId, 'spring_reminder', 'APPROVED', body('Last day of the sale in {{1}}')),
      template(ws, accountId, 'under_review', 'PENDING', body('Not yet {{1}}')),
      template(ws, accountId, 'with_picture', 'APPROVED', [{ type: 'HEADER', format: 'IMAGE' }, ...body('See {{1}}')]),
      template(otherWs, otherAccountId, 'other_sale', 'APPROVED', body('Other sale in {{1}}')),
    ])
    .returning();
  [tplId, followUpId, pendingTplId, mediaTplId, otherTplId] = tpls.map((x) => x.id);
  const [seg] = await db
    .insert(t.segments)
    .values({ workspaceId: ws, name: 'Batch S', filters: [{ column: 'batch', operator: 'IS', value: 'S', conjuction: 'AND' }], memberId })
    .returning();
  segmentId = seg.id;
});
afterAll(async () => {
  await dispose?.();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});
afterEach(async () => {
  // What a test left running is not claimed by the next one.
  await database.db.update(t.campaignRuns).set({ status: 'cancelled' }).where(inArray(t.campaignRuns.status, ['running', 'paused']));
  sends.length = 0;
  logged.length = 0;
  progressCalls.length = 0;
  script.clear();
  brokenProgress.clear();
  paced = false;
  duringSend = null;
  clock = null;
});

let phoneSeq = 0;
/** New contacts of a workspace (US numbers unless `phone` is given), each with its city. */
async function addContacts(n: number, over: Partial<typeof t.contacts.$inferInsert> = {}, workspaceId = ws) {
  const rows = Array.from({ length: n }, (_, i) => ({
    workspaceId,
    phoneNumber: `+1415${String(5_100_000 + ++phoneSeq).padStart(7, '0')}`,
    name: `Customer ${phoneSeq}`,
    attributes: { city: `City ${phoneSeq}` } as Record<string, string>,
    ...over,
    ...(over.phoneNumber ? { phoneNumber: `${over.phoneNumber}${String(++phoneSeq).padStart(4, '0')}${i}` } : {}),
  }));
  return database.db.insert(t.contacts).values(rows).returning();
}

type StepSpec = { send: string; variables?: unknown[]; headerMediaLink?: string; account?: string } | { delayHours: number; unit?: 'hours' | 'days' };
const cityOf = (attrId = cityAttrId) => [{ id: 'v1', component: 'BODY', variable: '1', source: 'attribute', value: attrId, fallback: '' }];

function canvas(steps: StepSpec[], trigger: Record<string, unknown> = { segmentId }) {
  const nodes: Record<string, unknown>[] = [{ id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', ...trigger } }];
  const edges: Record<string, unknown>[] = [];
  steps.forEach((s, i) => {
    const id = `s${i + 1}`;
    nodes.push(
      'send' in s
        ? {
            id,
            type: 'SendWhatsappNode',
            position: { x: 0, y: 100 },
            data: { label: 'Send', whatsappAccountId: s.account ?? accountId, whatsappTemplateId: s.send, variables: s.variables ?? cityOf(), ...(s.headerMediaLink ? { headerMediaLink: s.headerMediaLink } : {}) },
          }
        : { id, type: 'DelayNode', position: { x: 0, y: 100 }, data: { label: 'Wait', waitFor: s.delayHours, waitForUnit: s.unit ?? 'hours' } },
    );
    edges.push({ id: `e${i}`, source: i === 0 ? 'trigger' : `s${i}`, target: id });
  });
  return { nodes, edges, viewport: { x: 0, y: 0, zoom: 1 } };
}

/** A deployed one-time campaign in progress. */
async function campaign(steps: StepSpec[], opts: { trigger?: Record<string, unknown>; workspaceId?: string; deployed?: boolean; type?: 'oneTime' | 'recurring' } = {}) {
  const rf = canvas(steps, opts.trigger);
  const [row] = await database.db
    .insert(t.campaigns)
    .values({
      workspaceId: opts.workspaceId ?? ws,
      name: `Campaign ${++phoneSeq}`,
      type: opts.type ?? 'oneTime',
      status: opts.type === 'recurring' ? 'active' : 'inProgress',
      rfInstance: rf,
      memberId,
      deployedAt: opts.deployed === false ? null : new Date(),
      deployedRf: opts.deployed === false ? null : rf,
    })
    .returning();
  return row;
}

/** A running run of `c` whose recipients are due now at `stepId` (the first step unless given). */
async function runOf(
  c: typeof t.campaigns.$inferSelect,
  contacts: { id: string }[],
  opts: { stepId?: string | null; attempts?: number; snapshotDone?: boolean; nextAt?: Date; workspaceId?: string } = {},
) {
  const workspaceId = opts.workspaceId ?? c.workspaceId;
  const [run] = await database.db
    .insert(t.campaignRuns)
    .values({ workspaceId, campaignId: c.id, snapshotDone: opts.snapshotDone ?? true, recipientCount: contacts.length })
    .returning();
  const recipients = contacts.length
    ? await database.db
        .insert(t.campaignRecipients)
        .values(
          contacts.map((x, i) => ({
            workspaceId,
            runId: run.id,
            campaignId: c.id,
            contactId: x.id,
            stepId: opts.stepId === undefined ? 's1' : opts.stepId,
            status: 'pending' as const,
            // Due a minute ago (in contact order), whatever the clocks of the test and the database say.
            nextAt: opts.nextAt ?? new Date(Date.now() - 60_000 + i),
            attempts: opts.attempts ?? 0,
          })),
        )
        .returning()
    : [];
  return { run, recipients };
}

const recipientsOf = (runId: string) =>
  database.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.runId, runId)).orderBy(asc(t.campaignRecipients.createdAt), asc(t.campaignRecipients.contactId));
const recipient = async (id: string) => (await database.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.id, id)))[0];
const move = (r: typeof t.campaignRecipients.$inferSelect) => ({ status: r.status, stepId: r.stepId, nextAt: r.nextAt?.toISOString() ?? null, attempts: r.attempts });
const logsOfRun = (runId: string) => database.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.runId, runId));
const logOf = async (recipientId: string) => database.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.recipientId, recipientId));
const runRow = async (id: string) => (await database.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.id, id)))[0];
const campaignRow = async (id: string) => (await database.db.select().from(t.campaigns).where(eq(t.campaigns.id, id)))[0];
const updatedEvents = async (campaignId: string) =>
  (await database.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.type, 'campaign.updated'))).filter(
    (e) => (e.payload as { campaign: { id: string } }).campaign.id === campaignId,
  );
const completedLogs = (campaignId: string) => logged.filter((l) => l.level === 'info' && l.msg === 'campaign completed' && l.obj.campaignId === campaignId);
/** The log lines a test compares: what the campaign's logs page shows of each. */
const line = (l: typeof t.campaignLogs.$inferSelect) => ({
  messageStatus: l.messageStatus,
  deliveryState: l.deliveryState,
  reason: l.reason,
  errorCode: l.errorCode,
  wamid: l.waMessageId,
  templateName: l.templateName,
  stepId: l.stepId,
});
const fixed = (iso: string) => (clock = new Date(iso));
const plus = (ms: number) => new Date(clock!.getTime() + ms).toISOString();

describe('a send step', () => {
  it('sends each due recipient once with its mapped value, logs it sent, and completes the run and its one-time campaign', async () => {
    const contacts = await addContacts(3);
    const c = await campaign([{ send: tplId }]);
    const { run, recipients } = await runOf(c, contacts);
    const r = runner();

    expect(await r.tick()).toBe(3);
    expect(sends.map((s) => s.idempotencyKey).sort()).toEqual(recipients.map((x) => `campaign:${x.id}:s1`).sort());
    for (const x of contacts) {
      const s = sends.find((y) => y.target.contactId === x.id)!;
      expect(s).toMatchObject({ workspaceId: ws, actor: { type: 'campaign', campaignId: c.id }, target: { contactId: x.id, whatsappAccountId: accountId }, content: { type: 'template' } });
      expect(JSON.stringify(s.content)).toContain(`Hello from ${x.attributes.city}: spring sale!`);
    }
    expect((await recipientsOf(run.id)).map(move)).toEqual(recipients.map(() => ({ status: 'done', stepId: null, nextAt: null, attempts: 0 })));
    const logs = await logsOfRun(run.id);
    expect(logs).toHaveLength(3);
    for (const x of recipients) {
      const l = logs.find((y) => y.recipientId === x.id)!;
      const contact = contacts.find((y) => y.id === x.contactId)!;
      expect(l).toMatchObject({ workspaceId: ws, campaignId: c.id, runId: run.id, contactId: contact.id, phoneNumber: contact.phoneNumber });
      expect(line(l)).toEqual({ messageStatus: 'success', deliveryState: 'sent', reason: null, errorCode: null, wamid: expect.stringMatching(/^wamid\.run\./), templateName: 'spring_sale', stepId: 's1' });
    }
    expect(new Set(logs.map((l) => l.waMessageId)).size).toBe(3);
    expect(await runRow(run.id)).toMatchObject({ status: 'completed', finishedAt: expect.any(Date) });
    expect((await campaignRow(c.id)).status).toBe('completed');
    const events = await updatedEvents(c.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ workspaceId: ws, payload: { campaign: { id: c.id, status: 'completed' } } });
    expect(completedLogs(c.id)).toHaveLength(1);
    expect(progressCalls).toEqual([[ws, c.id]]);

    // Nothing is due any more: the next claim sends nothing.
    expect(await r.tick()).toBe(0);
    expect(sends).toHaveLength(3);
  });

  it('takes at most `batchSize` recipients a claim (200 unless set)', async () => {
    const contacts = await addContacts(3);
    const c = await campaign([{ send: tplId }]);
    const { run } = await runOf(c, contacts);
    const r = runner({ batchSize: 2 });
    expect(await r.tick()).toBe(2);
    expect(sends).toHaveLength(2);
    expect((await runRow(run.id)).status).toBe('running');
    expect(await r.tick()).toBe(1);
    expect(sends).toHaveLength(3);
    expect((await runRow(run.id)).status).toBe('completed');

    const many = await addContacts(201);
    const big = await campaign([{ send: tplId }]);
    const second = await runOf(big, many);
    const byDefault = runner();
    expect(await byDefault.tick()).toBe(200);
    expect((await recipientsOf(second.run.id)).filter((x) => x.status === 'pending')).toHaveLength(1);
    expect(await byDefault.tick()).toBe(1);
    expect((await campaignRow(big.id)).status).toBe('completed');
  });

  it('holds a recipient under a lease while its send is under way (20 seconds unless set)', async () => {
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const { recipients } = await runOf(c, [a]);
    const seen: { status: string; leftMs: number }[] = [];
    duringSend = async () => {
      const row = await recipient(recipients[0].id);
      seen.push({ status: row.status, leftMs: row.nextAt!.getTime() - Date.now() });
    };
    await runner().tick();
    expect(seen).toHaveLength(1);
    expect(seen[0].status).toBe('sending');
    expect(seen[0].leftMs).toBeGreaterThan(15_000);
    expect(seen[0].leftMs).toBeLessThanOrEqual(25_000);

    const [b] = await addContacts(1);
    const other = await runOf(c, [b]);
    seen.length = 0;
    duringSend = async () => {
      const row = await recipient(other.recipients[0].id);
      seen.push({ status: row.status, leftMs: row.nextAt!.getTime() - Date.now() });
    };
    await runner({ leaseMs: 3_600_000 }).tick();
    expect(seen[0].leftMs).toBeGreaterThan(50 * 60_000);
  });

  it('renews the lease while the batch runs: a send slower than the lease keeps its claim, and nobody else claims it', async () => {
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const { recipients } = await runOf(c, [a]);
    const seen: number[] = [];
    const other = runner({ leaseMs: 400 });
    duringSend = async () => {
      // Three leases long: without renewal the claim would have run out twice.
      await new Promise((r) => setTimeout(r, 1200));
      seen.push((await recipient(recipients[0].id)).nextAt!.getTime() - Date.now());
      expect(await other.tick()).toBe(0);
    };
    await runner({ leaseMs: 400 }).tick();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThan(0);
    expect(sends).toHaveLength(1);
    expect((await recipient(recipients[0].id)).status).toBe('done');
  });

  it('moves a recipient along the chain: the next send due now, a delay waiting its hours, the last step done', async () => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }, { delayHours: 2 }, { send: followUpId }, { delayHours: 1, unit: 'days' }]);
    const { run, recipients } = await runOf(c, [a]);
    const id = recipients[0].id;
    const r = runner();

    expect(await r.tick()).toBe(1);
    expect(move(await recipient(id))).toEqual({ status: 'pending', stepId: 's2', nextAt: clock!.toISOString(), attempts: 0 });
    expect(await r.tick()).toBe(1);
    expect(sends).toHaveLength(1);
    expect(move(await recipient(id))).toEqual({ status: 'waiting', stepId: 's3', nextAt: plus(2 * 3600_000), attempts: 0 });
    // The test's clock is in the past: make the delay over for the database.
    await database.db.update(t.campaignRecipients).set({ nextAt: new Date(Date.now() - 1000) }).where(eq(t.campaignRecipients.id, id));
    expect(await r.tick()).toBe(1);
    expect(sends.map((s) => s.idempotencyKey)).toEqual([`campaign:${id}:s1`, `campaign:${id}:s3`]);
    expect(JSON.stringify(sends[1].content)).toContain(`Last day of the sale in ${a.attributes.city}`);
    expect(move(await recipient(id))).toEqual({ status: 'pending', stepId: 's4', nextAt: clock!.toISOString(), attempts: 0 });
    expect((await runRow(run.id)).status).toBe('running');
    // A delay as the last step: done once it is reached (nothing to wait for).
    expect(await r.tick()).toBe(1);
    expect(move(await recipient(id))).toEqual({ status: 'done', stepId: null, nextAt: null, attempts: 0 });
    expect((await runRow(run.id)).status).toBe('completed');
    expect((await logsOfRun(run.id)).map(line).sort((x, y) => x.stepId!.localeCompare(y.stepId!))).toEqual([
      expect.objectContaining({ deliveryState: 'sent', templateName: 'spring_sale', stepId: 's1' }),
      expect.objectContaining({ deliveryState: 'sent', templateName: 'spring_reminder', stepId: 's3' }),
    ]);
  });

  it('a delay of days waits 24 hours a day, and a send after a delay is the next step', async () => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a] = await addContacts(1);
    const c = await campaign([{ delayHours: 3, unit: 'days' }, { send: tplId }]);
    const { recipients } = await runOf(c, [a]);
    await runner().tick();
    expect(sends).toHaveLength(0);
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'waiting', stepId: 's2', nextAt: plus(72 * 3600_000), attempts: 0 });
  });
});

describe('the outcome of a send', () => {
  it('sent: resets the pair-rate attempts for the next step', async () => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }, { send: followUpId }]);
    const { recipients } = await runOf(c, [a], { attempts: 2 });
    await runner().tick();
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'pending', stepId: 's2', nextAt: clock!.toISOString(), attempts: 0 });
  });

  it('in flight in another process: the same step again 5 s later, nothing logged', async () => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const { run, recipients } = await runOf(c, [a], { attempts: 1 });
    script.set(a.id, [new SendInFlightError('x')]);
    await runner().tick();
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'pending', stepId: 's1', nextAt: plus(5_000), attempts: 1 });
    expect(await logsOfRun(run.id)).toEqual([]);
    expect((await runRow(run.id)).status).toBe('running');
  });

  it.each([
    ['an unknown outcome', () => new OutcomeUnknownError('x')],
    ['a Graph error that may have arrived', () => new GraphApiError({ httpStatus: 0, network: true, timeout: true, mayHaveArrived: true })],
  ])('%s: logged unknown, never resent, the recipient goes on to its next step', async (_name, error) => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a, b] = await addContacts(2);
    const c = await campaign([{ send: tplId }, { send: followUpId }]);
    const { run, recipients } = await runOf(c, [a], { attempts: 2 });
    script.set(a.id, [error()]);
    const r = runner();
    await r.tick();
    const id = recipients[0].id;
    expect(move(await recipient(id))).toEqual({ status: 'pending', stepId: 's2', nextAt: clock!.toISOString(), attempts: 0 });
    expect((await logOf(id)).map(line)).toEqual([
      { messageStatus: 'failed', deliveryState: 'unknown', reason: 'outcome unknown, not resent', errorCode: null, wamid: null, templateName: 'spring_sale', stepId: 's1' },
    ]);
    await r.tick();
    expect(sends.map((s) => s.idempotencyKey)).toEqual([`campaign:${id}:s1`, `campaign:${id}:s2`]);
    expect(move(await recipient(id))).toEqual({ status: 'done', stepId: null, nextAt: null, attempts: 0 });

    // The last step's unknown outcome: done, and the run completes.
    const one = await campaign([{ send: tplId }]);
    const last = await runOf(one, [b]);
    script.set(b.id, [error()]);
    await r.tick();
    expect(move(await recipient(last.recipients[0].id))).toEqual({ status: 'done', stepId: null, nextAt: null, attempts: 0 });
    expect((await logOf(last.recipients[0].id)).map((l) => l.deliveryState)).toEqual(['unknown']);
    expect((await runRow(last.run.id)).status).toBe('completed');
    expect((await runRow(run.id)).status).toBe('completed');
  });

  it("131056 (pair rate): the same step after 6, 24 and 96 s, then failed with Meta's reason", async () => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }, { send: followUpId }]);
    const { run, recipients } = await runOf(c, [a]);
    const id = recipients[0].id;
    const pairRate = () => new GraphApiError({ httpStatus: 400, code: 131056, message: 'pair rate' });
    // A throttled answer in between (the outbound path gave up on 130429) keeps the attempts counted so far.
    script.set(a.id, [pairRate(), new GraphApiError({ httpStatus: 429, code: 130429 }), pairRate(), pairRate(), pairRate()]);
    const r = runner();
    await r.tick();
    expect(move(await recipient(id))).toEqual({ status: 'pending', stepId: 's1', nextAt: plus(6_000), attempts: 1 });
    await r.tick();
    expect(move(await recipient(id))).toEqual({ status: 'pending', stepId: 's1', nextAt: plus(10_000), attempts: 1 });
    await r.tick();
    expect(move(await recipient(id))).toEqual({ status: 'pending', stepId: 's1', nextAt: plus(24_000), attempts: 2 });
    await r.tick();
    expect(move(await recipient(id))).toEqual({ status: 'pending', stepId: 's1', nextAt: plus(96_000), attempts: 3 });
    expect(await logsOfRun(run.id)).toEqual([]);
    await r.tick();
    expect(move(await recipient(id))).toEqual({ status: 'failed', stepId: 's1', nextAt: null, attempts: 3 });
    const expected = new GraphApiError({ httpStatus: 400, code: 131056 }).userMessage;
    expect((await logOf(id)).map(line)).toEqual([{ messageStatus: 'failed', deliveryState: 'failed', reason: expected, errorCode: 131056, wamid: null, templateName: 'spring_sale', stepId: 's1' }]);
    expect(sends.map((s) => s.idempotencyKey)).toEqual(Array(5).fill(`campaign:${id}:s1`));
    expect((await runRow(run.id)).status).toBe('completed');
  });

  it.each([
    ['130429 past the path retries', { httpStatus: 429, code: 130429 }],
    ['131057 (maintenance)', { httpStatus: 400, code: 131057 }],
    ['a 5xx without a code', { httpStatus: 503 }],
  ])('%s: the same send 10 s later, attempts kept, nothing logged', async (_name, init) => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const { run, recipients } = await runOf(c, [a], { attempts: 2 });
    script.set(a.id, [new GraphApiError(init)]);
    const r = runner();
    await r.tick();
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'pending', stepId: 's1', nextAt: plus(10_000), attempts: 2 });
    expect(await logsOfRun(run.id)).toEqual([]);
    await r.tick();
    expect(sends).toHaveLength(2);
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'done', stepId: null, nextAt: null, attempts: 0 });
  });

  it("a final refusal (131026, a 400 without a code): failed with Meta's reason and code, no further step", async () => {
    const [a, b] = await addContacts(2);
    const c = await campaign([{ send: tplId }, { send: followUpId }]);
    const { run, recipients } = await runOf(c, [a, b], { attempts: 1 });
    script.set(a.id, [new GraphApiError({ httpStatus: 400, code: 131026 })]);
    script.set(b.id, [new GraphApiError({ httpStatus: 400 })]);
    const r = runner();
    await r.tick();
    const [ra, rb] = [recipients.find((x) => x.contactId === a.id)!, recipients.find((x) => x.contactId === b.id)!];
    expect(move(await recipient(ra.id))).toEqual({ status: 'failed', stepId: 's1', nextAt: null, attempts: 1 });
    expect(move(await recipient(rb.id))).toEqual({ status: 'failed', stepId: 's1', nextAt: null, attempts: 1 });
    const base = { messageStatus: 'failed', deliveryState: 'failed', wamid: null, templateName: 'spring_sale', stepId: 's1' };
    expect((await logOf(ra.id)).map(line)).toEqual([{ ...base, reason: new GraphApiError({ httpStatus: 400, code: 131026 }).userMessage, errorCode: 131026 }]);
    expect((await logOf(rb.id)).map(line)).toEqual([{ ...base, reason: new GraphApiError({ httpStatus: 400 }).userMessage, errorCode: null }]);
    expect(await r.tick()).toBe(0);
    expect(sends).toHaveLength(2);
    expect((await runRow(run.id)).status).toBe('completed');
    expect((await campaignRow(c.id)).status).toBe('completed');
  });

  it('a refusal of our own (an HTTP error of the path): failed with its message', async () => {
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const { recipients } = await runOf(c, [a]);
    script.set(a.id, [badRequest('This number cannot send yet')]);
    await runner().tick();
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'failed', stepId: 's1', nextAt: null, attempts: 0 });
    expect((await logOf(recipients[0].id)).map(line)).toEqual([
      { messageStatus: 'failed', deliveryState: 'failed', reason: 'This number cannot send yet', errorCode: null, wamid: null, templateName: 'spring_sale', stepId: 's1' },
    ]);
  });

  it('an error the outbound path did not classify, with nothing claimed: the same step 10 s later; the batch still writes the others', async () => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a, b] = await addContacts(2);
    const c = await campaign([{ send: tplId }]);
    const { run, recipients } = await runOf(c, [a, b]);
    script.set(a.id, [new Error('socket hang up')]);
    expect(await runner().tick()).toBe(2);
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'pending', stepId: 's1', nextAt: '2026-03-10T12:00:10.000Z', attempts: 0 });
    expect((await recipient(recipients[1].id)).status).toBe('done');
    expect((await logsOfRun(run.id)).map((l) => l.recipientId)).toEqual([recipients[1].id]);
  });

  it('a send Meta accepted whose writes failed: logged unknown with its wamid, the batch goes on, and a later status settles the line', async () => {
    const [a, b] = await addContacts(2);
    const c = await campaign([{ send: tplId }]);
    const { run, recipients } = await runOf(c, [a, b]);
    const wamid = `wamid.accepted.unstored.${Date.now()}`;
    // What the outbound path leaves when Meta answered but its final write failed: the send unknown, with the wamid.
    await database.db.insert(t.outboundSends).values({
      workspaceId: ws,
      idempotencyKey: `campaign:${recipients[0].id}:s1`,
      whatsappAccountId: accountId,
      contactId: a.id,
      actorType: 'campaign',
      messageType: 'template',
      status: 'unknown',
      waMessageId: wamid,
      failureReason: `accepted by WhatsApp as ${wamid} but not stored`,
    });
    script.set(a.id, [new Error('connection reset while writing')]);
    expect(await runner().tick()).toBe(2);
    expect((await recipient(recipients[0].id)).status).toBe('done');
    expect((await recipient(recipients[1].id)).status).toBe('done');
    expect((await logOf(recipients[0].id)).map(line)).toEqual([
      { messageStatus: 'failed', deliveryState: 'unknown', reason: 'outcome unknown, not resent', errorCode: null, wamid, templateName: 'spring_sale', stepId: 's1' },
    ]);
    await database.transaction((tx) => campaignStatusesApplied(tx, ws, [{ wamid, status: 'delivered', failure: { code: null, reason: null } }]));
    expect((await logOf(recipients[0].id)).map(line)).toEqual([
      { messageStatus: 'success', deliveryState: 'delivered', reason: null, errorCode: null, wamid, templateName: 'spring_sale', stepId: 's1' },
    ]);
    expect(await logsOfRun(run.id)).toHaveLength(2);
  });
});

describe('pause and delete during a batch', () => {
  const pauseNow = (campaignId: string, workspaceId = ws) =>
    database.transaction(async (tx) => {
      await setRunsStatus(tx, workspaceId, campaignId, 'running', 'paused');
      await releaseClaimed(tx, workspaceId, campaignId);
    });

  it('a pause stops the batch before its next send: what left is recorded, the rest is pending again, other campaigns go on', async () => {
    paced = true;
    const mine = await addContacts(4);
    const [o] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const other = await campaign([{ send: tplId }]);
    const { recipients } = await runOf(c, mine);
    const otherRun = await runOf(other, [o]);
    duringSend = async (input) => {
      if (input.target.contactId === mine[0].id) await pauseNow(c.id);
    };
    expect(await runner().tick()).toBe(5);
    // The send under way when the pause came had been handed over; nothing of that campaign went after it.
    expect(sends.filter((x) => x.actor.campaignId === c.id).map((x) => x.target.contactId)).toEqual([mine[0].id]);
    expect(sends.filter((x) => x.actor.campaignId === other.id)).toHaveLength(1);
    const rows = await Promise.all(recipients.map((r) => recipient(r.id)));
    expect(rows.map((r) => r.status)).toEqual(['done', 'pending', 'pending', 'pending']);
    expect((await logOf(recipients[0].id)).map((l) => l.deliveryState)).toEqual(['sent']);
    expect((await recipient(otherRun.recipients[0].id)).status).toBe('done');

    // Resumed: the rest goes, the first is not sent again.
    await database.transaction((tx) => setRunsStatus(tx, ws, c.id, 'paused', 'running'));
    await runner().tick();
    expect(sends.filter((x) => x.actor.campaignId === c.id).map((x) => x.target.contactId).sort()).toEqual(mine.map((x) => x.id).sort());
  });

  it("deleting a campaign or a contact mid-batch touches no other campaign's recipients", async () => {
    paced = true;
    const gone = await addContacts(2);
    const [leaving] = await addContacts(1);
    const [kept] = await addContacts(1);
    const deleted = await campaign([{ send: tplId }]);
    const survivor = await campaign([{ send: tplId }]);
    await runOf(deleted, gone);
    const { run, recipients } = await runOf(survivor, [leaving, kept]);
    // During the batch's first send (whichever it is), the campaign and the contact are deleted.
    duringSend = async () => {
      if (sends.length > 1) return;
      await database.db.delete(t.campaigns).where(eq(t.campaigns.id, deleted.id));
      await database.db.delete(t.contacts).where(eq(t.contacts.id, leaving.id));
    };
    expect(await runner().tick()).toBe(4);
    // After it, nothing went to the deleted campaign's recipients nor to the deleted contact.
    expect(sends.slice(1).map((x) => x.target.contactId)).toEqual([kept.id].filter((id) => id !== sends[0].target.contactId));
    expect((await recipientsOf(run.id)).map((r) => [r.contactId, r.status])).toEqual([[kept.id, 'done']]);
    expect((await logsOfRun(run.id)).map((l) => l.recipientId)).toEqual([recipients[1].id]);
    expect(await database.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.campaignId, deleted.id))).toEqual([]);
  });
});

describe('before a send', () => {
  it.each([
    ['keyword', 'opted out (keyword)'],
    ['template_button', "opted out (template's opt-out button)"],
    ['member', 'opted out (by hand)'],
  ] as const)('the skip reason of a contact opted out by %s says so', async (source, reason) => {
    const [a] = await addContacts(1, { optedOutAt: new Date(), optedOutSource: source });
    const c = await campaign([{ send: tplId }]);
    const { recipients } = await runOf(c, [a], { attempts: 1 });
    await runner().tick();
    expect(sends).toEqual([]);
    expect((await logOf(recipients[0].id)).map(line)).toEqual([
      { messageStatus: 'failed', deliveryState: 'optedOut', reason, errorCode: null, wamid: null, templateName: 'spring_sale', stepId: 's1' },
    ]);
  });

  it('an opted-out contact is skipped and logged opted out, nothing sent', async () => {
    const [a] = await addContacts(1, { optedOutAt: new Date() });
    const c = await campaign([{ send: tplId }]);
    const { run, recipients } = await runOf(c, [a], { attempts: 1 });
    await runner().tick();
    expect(sends).toEqual([]);
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'skipped', stepId: 's1', nextAt: null, attempts: 1 });
    expect((await logOf(recipients[0].id)).map(line)).toEqual([
      { messageStatus: 'failed', deliveryState: 'optedOut', reason: 'opted out', errorCode: null, wamid: null, templateName: 'spring_sale', stepId: 's1' },
    ]);
    expect((await runRow(run.id)).status).toBe('completed');
  });

  it('a template that is gone, not approved, or a variable without a value: failed with the reason, nothing sent', async () => {
    const [a, b, d] = await addContacts(3);
    const [noCity] = await addContacts(1, { attributes: {} });
    const gone = await campaign([{ send: '00000000-0000-4000-8000-000000000000' }]);
    const review = await campaign([{ send: pendingTplId }]);
    const unmapped = await campaign([{ send: tplId }]);
    const picture = await campaign([{ send: mediaTplId }]);
    const runs = [await runOf(gone, [a]), await runOf(review, [b]), await runOf(unmapped, [noCity]), await runOf(picture, [d], { attempts: 2 })];
    await runner().tick();
    expect(sends).toEqual([]);
    const base = { messageStatus: 'failed', deliveryState: 'failed', errorCode: null, wamid: null, stepId: 's1' };
    const results = [];
    for (const x of runs) results.push({ move: move(await recipient(x.recipients[0].id)), lines: (await logOf(x.recipients[0].id)).map(line) });
    expect(results).toEqual([
      { move: { status: 'failed', stepId: 's1', nextAt: null, attempts: 0 }, lines: [{ ...base, templateName: '', reason: 'The template of this step no longer exists' }] },
      { move: { status: 'failed', stepId: 's1', nextAt: null, attempts: 0 }, lines: [{ ...base, templateName: 'under_review', reason: 'Template under_review is PENDING; only approved templates can be sent' }] },
      { move: { status: 'failed', stepId: 's1', nextAt: null, attempts: 0 }, lines: [{ ...base, templateName: 'spring_sale', reason: 'Not sent: no value for {{1}} of the body' }] },
      { move: { status: 'failed', stepId: 's1', nextAt: null, attempts: 2 }, lines: [{ ...base, templateName: 'with_picture', reason: 'This template has a media header: give headerMediaLink' }] },
    ]);
  });

  it("sends a media header with the step's link", async () => {
    const [a] = await addContacts(1);
    const c = await campaign([{ send: mediaTplId, headerMediaLink: 'https://cdn.example.com/spring.jpg' }]);
    const { recipients } = await runOf(c, [a]);
    await runner().tick();
    expect(sends).toHaveLength(1);
    expect(JSON.stringify(sends[0].content)).toContain('https://cdn.example.com/spring.jpg');
    expect(move(await recipient(recipients[0].id)).status).toBe('done');
  });

  it("reads a workspace's templates and attributes in its own workspace", async () => {
    const [a] = await addContacts(1, {}, otherWs);
    const [otherCity] = await database.db.select().from(t.attributes).where(and(eq(t.attributes.workspaceId, otherWs), eq(t.attributes.name, 'city')));
    const c = await campaign([{ send: otherTplId, account: otherAccountId, variables: cityOf(otherCity.id) }], { workspaceId: otherWs });
    const [b] = await addContacts(1);
    const mine = await campaign([{ send: tplId }]);
    await runOf(c, [a]);
    await runOf(mine, [b]);
    await runner().tick();
    expect(sends.map((s) => [s.workspaceId, s.target.whatsappAccountId]).sort()).toEqual([[otherWs, otherAccountId], [ws, accountId]].sort());
    expect(JSON.stringify(sends.find((s) => s.workspaceId === otherWs)!.content)).toContain(`Other sale in ${a.attributes.city}`);
    expect(progressCalls.sort()).toEqual([[otherWs, c.id], [ws, mine.id]].sort());
  });
});

describe('send windows', () => {
  const window = (start: string, end: string) => ({ segmentId, sendWindow: { start, end } });

  it("outside the recipient's window: the same step at the window's next start, nothing sent or logged", async () => {
    fixed('2026-03-10T12:00:00.000Z');
    const [a] = await addContacts(1, { attributes: { city: 'Lyon', timeZone: 'UTC' } });
    const c = await campaign([{ send: tplId }], { trigger: window('14:00', '16:00') });
    const { run, recipients } = await runOf(c, [a], { attempts: 1 });
    await runner().tick();
    expect(sends).toEqual([]);
    expect(move(await recipient(recipients[0].id))).toEqual({ status: 'pending', stepId: 's1', nextAt: '2026-03-10T14:00:00.000Z', attempts: 1 });
    expect(await logsOfRun(run.id)).toEqual([]);
  });

  it('inside it, or due within a second of its start: sent now', async () => {
    fixed('2026-03-10T13:59:59.000Z');
    const [a, b] = await addContacts(2, { attributes: { city: 'Lyon', timeZone: 'UTC' } });
    const starts = await campaign([{ send: tplId }], { trigger: window('14:00', '16:00') });
    const inside = await campaign([{ send: tplId }], { trigger: window('13:00', '15:00') });
    await runOf(starts, [a]);
    await runOf(inside, [b]);
    await runner().tick();
    expect(sends.map((s) => s.target.contactId).sort()).toEqual([a.id, b.id].sort());
  });

  it("in the recipient's zone: its own, its number's area, else the workspace's", async () => {
    // 13:00 UTC is 06:00 in California (a 415 number), 09:00 in New York (a 212 number), 13:00 in London and
    // 22:00 in Tokyo (the workspace's zone, for a contact known by a user id only); +999 is no country.
    fixed('2026-03-10T13:00:00.000Z');
    const [california] = await addContacts(1);
    const [newYork] = await addContacts(1, { phoneNumber: '+1212555' });
    const [gb] = await addContacts(1, { phoneNumber: '+4420794' });
    const [own] = await addContacts(1, { attributes: { city: 'Paris', timeZone: 'America/New_York' } });
    const [userOnly] = await addContacts(1, { phoneNumber: null, userId: `user-${++phoneSeq}` });
    const [unplaced] = await addContacts(1, { phoneNumber: '+99912' });
    const c = await campaign([{ send: tplId }], { trigger: window('09:00', '17:00') });
    const { recipients } = await runOf(c, [california, newYork, gb, own, userOnly, unplaced]);
    await runner().tick();
    expect(sends.map((s) => s.target.contactId).sort()).toEqual([newYork.id, gb.id, own.id].sort());
    const at = async (contactId: string) => move(await recipient(recipients.find((x) => x.contactId === contactId)!.id));
    // 09:00 in Los Angeles (PDT) is 16:00 UTC; 09:00 in Tokyo is 00:00 UTC
    expect(await at(california.id)).toMatchObject({ status: 'pending', nextAt: '2026-03-10T16:00:00.000Z' });
    expect(await at(userOnly.id)).toMatchObject({ status: 'pending', nextAt: '2026-03-11T00:00:00.000Z' });
    expect(await at(unplaced.id)).toMatchObject({ status: 'pending', nextAt: '2026-03-11T00:00:00.000Z' });
  });
});

describe('recipients the runner cannot move on', () => {
  it('a campaign with no deployed canvas, a contact of another workspace or a step not on the canvas: failed; no step left: done', async () => {
    const [a, b, d, e] = await addContacts(4);
    const [stranger] = await addContacts(1, {}, otherWs);
    const undeployed = await campaign([{ send: tplId }], { deployed: false });
    const c = await campaign([{ send: tplId }]);
    const runs = [
      await runOf(undeployed, [a], { attempts: 1 }),
      await runOf(c, [stranger], { attempts: 1, workspaceId: ws }),
      await runOf(c, [b], { stepId: 'removed', attempts: 1 }),
      await runOf(c, [d], { stepId: null, attempts: 1 }),
    ];
    const [ok] = [await runOf(c, [e])];
    await runner().tick();
    expect(sends.map((s) => s.target.contactId)).toEqual([e.id]);
    const moves = [];
    for (const x of runs) moves.push(move(await recipient(x.recipients[0].id)));
    expect(moves).toEqual([
      { status: 'failed', stepId: 's1', nextAt: null, attempts: 1 },
      { status: 'failed', stepId: 's1', nextAt: null, attempts: 1 },
      { status: 'failed', stepId: 'removed', nextAt: null, attempts: 1 },
      { status: 'done', stepId: null, nextAt: null, attempts: 1 },
    ]);
    for (const x of [...runs, ok]) expect((await runRow(x.run.id)).status).toBe('completed');
    for (const x of runs) expect(await logsOfRun(x.run.id)).toEqual([]);
  });

  it('a recipient whose campaign is unknown (an older row without one): failed; a canvas deployed without a time is followed', async () => {
    const [a, b] = await addContacts(2);
    const c = await campaign([{ send: tplId }]);
    const orphan = await runOf(c, [a], { attempts: 1 });
    await database.db.update(t.campaignRecipients).set({ campaignId: null }).where(eq(t.campaignRecipients.runId, orphan.run.id));
    const timeless = await campaign([{ send: tplId }]);
    await database.db.update(t.campaigns).set({ deployedAt: null }).where(eq(t.campaigns.id, timeless.id));
    const followed = await runOf(timeless, [b]);
    await runner().tick();
    expect(move(await recipient(orphan.recipients[0].id))).toEqual({ status: 'failed', stepId: 's1', nextAt: null, attempts: 1 });
    expect(sends.map((s) => s.target.contactId)).toEqual([b.id]);
    expect((await recipient(followed.recipients[0].id)).status).toBe('done');
    expect((await runRow(orphan.run.id)).status).toBe('completed');
  });

  it('follows a redeployed canvas (a new deployedAt), not the one it read before', async () => {
    const [a, b] = await addContacts(2);
    const c = await campaign([{ send: tplId }]);
    await runOf(c, [a]);
    const r = runner();
    await r.tick();
    const rf = canvas([{ send: followUpId }]);
    await database.db.update(t.campaigns).set({ deployedRf: rf, deployedAt: new Date(Date.now() + 1000) }).where(eq(t.campaigns.id, c.id));
    const second = await runOf(c, [b]);
    await r.tick();
    expect((await logOf(second.recipients[0].id)).map((l) => l.templateName)).toEqual(['spring_reminder']);
    expect(JSON.stringify(sends[1].content)).toContain('Last day of the sale');
  });

  it('pause and cancel: recipients of a paused or cancelled run are not claimed; resumed, they are', async () => {
    const [a, b] = await addContacts(2);
    const c = await campaign([{ send: tplId }]);
    const paused = await runOf(c, [a]);
    const cancelled = await runOf(c, [b]);
    await database.db.update(t.campaignRuns).set({ status: 'paused' }).where(eq(t.campaignRuns.id, paused.run.id));
    await database.db.update(t.campaignRuns).set({ status: 'cancelled' }).where(eq(t.campaignRuns.id, cancelled.run.id));
    const r = runner();
    expect(await r.tick()).toBe(0);
    expect(sends).toEqual([]);
    await database.db.update(t.campaignRuns).set({ status: 'running' }).where(eq(t.campaignRuns.id, paused.run.id));
    expect(await r.tick()).toBe(1);
    expect(sends.map((s) => s.target.contactId)).toEqual([a.id]);
    expect((await runRow(paused.run.id)).status).toBe('completed');
    expect((await recipient(cancelled.recipients[0].id)).status).toBe('pending');
  });

  it('shares a claim round-robin across runs: a small run is not held behind another one’s backlog', async () => {
    const backlog = await addContacts(4);
    const [late] = await addContacts(1);
    const big = await campaign([{ send: tplId }]);
    const small = await campaign([{ send: tplId }]);
    await runOf(big, backlog, { nextAt: new Date(Date.now() - 120_000) });
    await runOf(small, [late]);
    await runner({ batchSize: 2 }).tick();
    expect(sends.map((s) => s.actor.campaignId).sort()).toEqual([big.id, small.id].sort());
  });
  it.runIf(onPostgres)('a claim does not wait for a run another transaction holds (the sweep completes it later)', async () => {
    // A recipient with no step left (done without a send or a log line: a log line's foreign key would wait for
    // the run's lock by itself).
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const { run, recipients } = await runOf(c, [a], { stepId: null });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const other = database.transaction(async (tx) => {
      await tx.execute(sql`select id from campaign_runs where id = ${run.id} for update`);
      holding();
      await released;
    });
    await held;
    const r = runner();
    try {
      // Waiting for the lock would wait for `released`, which comes only after the claim: the test would time out.
      expect(await r.tick()).toBe(1);
      expect((await recipient(recipients[0].id)).status).toBe('done');
      expect((await runRow(run.id)).status).toBe('running');
    } finally {
      release();
      await other;
    }
    expect(await r.sweep()).toBe(1);
    expect((await campaignRow(c.id)).status).toBe('completed');
  }, 60_000);

  it.runIf(onPostgres)("sends and logs a run's recipients while another process writes a chunk of that run's snapshot", async () => {
    // The snapshot's lock on the run must not hold back the log line's foreign key (FOR KEY SHARE on the run).
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const { run, recipients } = await runOf(c, [a], { snapshotDone: false });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: (id: string | undefined) => void;
    const held = new Promise<string | undefined>((resolve) => (holding = resolve));
    const other = database.transaction(async (tx) => {
      holding((await lockUnfinishedSnapshot(tx))?.id);
      await released;
    });
    try {
      expect(await held).toBe(run.id);
      // Waiting for the snapshot's lock would wait for `released`, which comes only after the claim.
      expect(await runner().tick()).toBe(1);
      expect((await recipient(recipients[0].id)).status).toBe('done');
      expect((await logsOfRun(run.id)).map((l) => [l.messageStatus, l.deliveryState])).toEqual([['success', 'sent']]);
    } finally {
      release();
      await other;
    }
  }, 60_000);
});

describe('snapshots', () => {
  it('writes the audience a chunk at a time at the first step, then marks it written', async () => {
    const members = await addContacts(5, { attributes: { city: 'Nice', batch: 'S' } });
    await addContacts(2, { attributes: { city: 'Nice', batch: 'T' } });
    const c = await campaign([{ send: tplId }, { send: followUpId }]);
    const { run } = await runOf(c, [], { snapshotDone: false });
    const r = runner({ snapshotChunk: 2 });
    const counts = [];
    for (let i = 0; i < 3; i++) {
      expect(await r.snapshotStep()).toBe(true);
      counts.push((await recipientsOf(run.id)).length);
    }
    expect(counts).toEqual([2, 4, 5]);
    expect(await runRow(run.id)).toMatchObject({ snapshotDone: true, recipientCount: 5, status: 'running' });
    expect(await r.snapshotStep()).toBe(false);
    const rows = await recipientsOf(run.id);
    expect(new Set(rows.map((x) => x.contactId))).toEqual(new Set(members.map((x) => x.id)));
    expect(rows.every((x) => x.status === 'pending' && x.stepId === 's1')).toBe(true);
    expect(await r.tick()).toBe(5);
    expect(await r.tick()).toBe(5);
    expect((await campaignRow(c.id)).status).toBe('completed');
  });

  it('writes up to 5000 contacts in one step unless set', async () => {
    await database.db.update(t.segments).set({ filters: [{ column: 'batch', operator: 'IS', value: 'U', conjuction: 'AND' }] }).where(eq(t.segments.id, segmentId));
    try {
      await addContacts(3, { attributes: { city: 'Nice', batch: 'U' } });
      const c = await campaign([{ send: tplId }]);
      const { run } = await runOf(c, [], { snapshotDone: false });
      expect(await runner().snapshotStep()).toBe(true);
      expect(await runRow(run.id)).toMatchObject({ snapshotDone: true, recipientCount: 3 });
    } finally {
      await database.db.update(t.segments).set({ filters: [{ column: 'batch', operator: 'IS', value: 'S', conjuction: 'AND' }] }).where(eq(t.segments.id, segmentId));
    }
  });

  it('completes a run whose recipients were all done before its last chunk was marked', async () => {
    await database.db.update(t.segments).set({ filters: [{ column: 'batch', operator: 'IS', value: 'V', conjuction: 'AND' }] }).where(eq(t.segments.id, segmentId));
    try {
      await addContacts(2, { attributes: { city: 'Nice', batch: 'V' } });
      const c = await campaign([{ send: tplId }]);
      const { run } = await runOf(c, [], { snapshotDone: false });
      const r = runner({ snapshotChunk: 2 });
      expect(await r.snapshotStep()).toBe(true);
      expect(await r.tick()).toBe(2);
      expect(await runRow(run.id)).toMatchObject({ status: 'running', snapshotDone: false });
      expect((await campaignRow(c.id)).status).toBe('inProgress');
      expect(await r.snapshotStep()).toBe(true);
      expect(await runRow(run.id)).toMatchObject({ status: 'completed', snapshotDone: true, recipientCount: 2 });
      expect((await campaignRow(c.id)).status).toBe('completed');
      expect(await updatedEvents(c.id)).toHaveLength(1);
    } finally {
      await database.db.update(t.segments).set({ filters: [{ column: 'batch', operator: 'IS', value: 'S', conjuction: 'AND' }] }).where(eq(t.segments.id, segmentId));
    }
  });

  it('an audience that is gone, a canvas with no step or no deployed canvas: the run completes with no recipients', async () => {
    const gone = await campaign([{ send: tplId }], { trigger: { segmentId: '00000000-0000-4000-8000-000000000000' } });
    const empty = await campaign([]);
    const undeployed = await campaign([{ send: tplId }], { deployed: false });
    const made = [];
    for (const c of [gone, empty, undeployed]) made.push({ c, run: (await runOf(c, [], { snapshotDone: false })).run });
    const r = runner();
    for (let i = 0; i < 3; i++) expect(await r.snapshotStep()).toBe(true);
    expect(await r.snapshotStep()).toBe(false);
    for (const { c, run } of made) {
      expect(await runRow(run.id)).toMatchObject({ status: 'completed', snapshotDone: true, recipientCount: 0 });
      expect((await campaignRow(c.id)).status).toBe('completed');
      expect(await updatedEvents(c.id)).toEqual([expect.objectContaining({ payload: expect.objectContaining({ campaign: expect.objectContaining({ status: 'completed' }) }) })]);
    }
    expect(sends).toEqual([]);
  });
});

describe('the sweep', () => {
  it('completes running runs left with no work, and their one-time campaigns, and answers how many', async () => {
    const r = runner();
    expect(await r.sweep()).toBe(0);
    const [a, b, d] = await addContacts(3);
    const c = await campaign([{ send: tplId }]);
    const recurring = await campaign([{ send: tplId }], { type: 'recurring' });
    const left = await runOf(c, [a]);
    const other = await runOf(recurring, [b]);
    const busy = await runOf(c, [d]);
    const done = { status: 'done' as const, nextAt: null };
    await database.db.update(t.campaignRecipients).set(done).where(inArray(t.campaignRecipients.runId, [left.run.id, other.run.id]));
    expect(await r.sweep()).toBe(2);
    expect((await runRow(left.run.id)).status).toBe('completed');
    expect((await runRow(other.run.id)).status).toBe('completed');
    expect((await runRow(busy.run.id)).status).toBe('running');
    // The one-time campaign still has a running run; the recurring one stays active.
    expect((await campaignRow(c.id)).status).toBe('inProgress');
    expect((await campaignRow(recurring.id)).status).toBe('active');
    expect(logged.filter((l) => l.msg === 'campaign completed')).toEqual([]);

    await database.db.update(t.campaignRecipients).set(done).where(eq(t.campaignRecipients.runId, busy.run.id));
    expect(await r.sweep()).toBe(1);
    expect((await campaignRow(c.id)).status).toBe('completed');
    expect(completedLogs(c.id)).toHaveLength(1);
    expect(await updatedEvents(c.id)).toHaveLength(1);
    expect(await r.sweep()).toBe(0);
    expect(sends).toEqual([]);
  });
});

describe('the loops', () => {
  /** A loop's pause, told apart from every other timer of the process. */
  const pause = 3_600_123;
  /**
   * The pauses under way (a loop's idle wait), read from the process's timers: a loop is idle exactly while its
   * timer is pending, so a test waits for the loops to be idle instead of sleeping.
   */
  function pausesOf() {
    const pending = new Set<unknown>();
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    const set = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...args: unknown[]) => {
      const handle = realSet(fn, ms, ...args);
      if (ms === pause) pending.add(handle);
      return handle;
    }) as unknown as typeof setTimeout);
    const clear = vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((handle?: NodeJS.Timeout) => {
      pending.delete(handle);
      realClear(handle);
    }) as unknown as typeof clearTimeout);
    return {
      get count() {
        return pending.size;
      },
      restore() {
        set.mockRestore();
        clear.mockRestore();
      },
    };
  }

  it('start: the claim loops send and the snapshot loop writes and sweeps, then pause; wake() ends the pauses; stop ends the loops', async () => {
    await database.db.update(t.segments).set({ filters: [{ column: 'batch', operator: 'IS', value: 'W', conjuction: 'AND' }] }).where(eq(t.segments.id, segmentId));
    const pauses = pausesOf();
    const r = runner({ idleMs: pause, batchSize: 1 });
    try {
      await addContacts(2, { attributes: { city: 'Nice', batch: 'W' } });
      const snap = await campaign([{ send: tplId }]);
      await runOf(snap, [], { snapshotDone: false });
      const [a, b] = await addContacts(2);
      const c = await campaign([{ send: tplId }]);
      const { run } = await runOf(c, [a, b]);
      // Left with no work: the snapshot loop's sweep completes it.
      const [d] = await addContacts(1);
      const swept = await campaign([{ send: tplId }]);
      const leftOver = await runOf(swept, [d], { stepId: null });
      await database.db.update(t.campaignRecipients).set({ status: 'done' }).where(eq(t.campaignRecipients.runId, leftOver.run.id));
      // A batch that fails is logged.
      const [e] = await addContacts(1);
      const broken = await campaign([{ send: tplId }]);
      await runOf(broken, [e]);
      brokenProgress.add(broken.id);

      r.start();
      r.start();
      const statusOf = async (id: string) => (await campaignRow(id)).status;
      const allDone = async () => (await statusOf(c.id)) === 'completed' && (await statusOf(snap.id)) === 'completed' && (await statusOf(swept.id)) === 'completed';
      // The claim loops may pause before the snapshot's recipients are written, and two loops that finish a run's
      // last recipients together leave it to the sweep: each round waits for all three loops to pause, then wakes them.
      for (let round = 0; round < 6; round++) {
        await until(() => pauses.count === 3, 30_000);
        if (await allDone()) break;
        r.wake();
      }
      expect(await allDone()).toBe(true);
      expect(logged.filter((l) => l.level === 'error').map((l) => l.msg)).toContain('campaign runner batch failed; its recipients are claimed again when their lease ends');
      expect((await runRow(run.id)).status).toBe('completed');
      expect(sends).toHaveLength(5);

      // All three paused: new work waits for a wake-up, which the claim loops and the sweep then take.
      const [f] = await addContacts(1);
      const later = await campaign([{ send: tplId }]);
      await runOf(later, [f]);
      const [h] = await addContacts(1);
      const sweptLater = await campaign([{ send: tplId }]);
      const sweptLaterRun = await runOf(sweptLater, [h], { stepId: null });
      await database.db.update(t.campaignRecipients).set({ status: 'done' }).where(eq(t.campaignRecipients.runId, sweptLaterRun.run.id));
      expect(pauses.count).toBe(3);
      r.wake();
      await until(async () => pauses.count === 3 && (await statusOf(later.id)) === 'completed' && (await statusOf(sweptLater.id)) === 'completed', 30_000);
      expect(sends).toHaveLength(6);
    } finally {
      await r.stop();
      pauses.restore();
      await database.db.update(t.segments).set({ filters: [{ column: 'batch', operator: 'IS', value: 'S', conjuction: 'AND' }] }).where(eq(t.segments.id, segmentId));
    }
    // Stopped: no pause is left pending (the process can exit), and the progress timers are stopped.
    expect(pauses.count).toBe(0);
    expect(progressStops).toBeGreaterThan(0);
  }, 120_000);

  it('runs `loops` claim loops (2 unless set), once however often it is started', async () => {
    const pauses = pausesOf();
    const r = runner({ idleMs: pause, batchSize: 1 });
    const contacts = await addContacts(4);
    const c = await campaign([{ send: tplId }]);
    const { run } = await runOf(c, contacts);
    let inFlight = 0;
    let most = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    duringSend = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await gate;
      inFlight--;
    };
    r.start();
    r.start();
    try {
      // Two loops hold a send each and the snapshot loop pauses: no third claim comes while they wait.
      await until(() => inFlight === 2 && pauses.count === 1, 30_000);
      expect(most).toBe(2);
      expect((await recipientsOf(run.id)).filter((x) => x.status === 'pending')).toHaveLength(2);
      open();
      // Two loops that finish a run's last recipients together leave it to the sweep: wake the snapshot loop.
      await until(async () => {
        r.wake();
        return (await campaignRow(c.id)).status === 'completed';
      }, 30_000);
    } finally {
      open();
      await r.stop();
      pauses.restore();
    }
    expect(most).toBe(2);
  }, 90_000);

  it('with no claim loops, the snapshot loop writes snapshots and sends nothing', async () => {
    await database.db.update(t.segments).set({ filters: [{ column: 'batch', operator: 'IS', value: 'X', conjuction: 'AND' }] }).where(eq(t.segments.id, segmentId));
    const r = runner({ idleMs: 3_600_000, loops: 0 });
    await addContacts(2, { attributes: { city: 'Nice', batch: 'X' } });
    const c = await campaign([{ send: tplId }]);
    const { run } = await runOf(c, [], { snapshotDone: false });
    try {
      r.start();
      await until(async () => (await runRow(run.id)).snapshotDone, 30_000);
      expect(await runRow(run.id)).toMatchObject({ recipientCount: 2, status: 'running' });
      expect(sends).toEqual([]);
    } finally {
      await r.stop();
      await database.db.update(t.segments).set({ filters: [{ column: 'batch', operator: 'IS', value: 'S', conjuction: 'AND' }] }).where(eq(t.segments.id, segmentId));
    }
    expect((await recipientsOf(run.id)).map((x) => x.status)).toEqual(['pending', 'pending']);
  }, 60_000);

  it('stop waits for the batch under way, and its loop ends after it (a failed batch included)', async () => {
    const r = runner({ idleMs: 3_600_000, loops: 1 });
    const [a] = await addContacts(1);
    const c = await campaign([{ send: tplId }]);
    const { run } = await runOf(c, [a]);
    brokenProgress.add(c.id);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let sending!: () => void;
    const underWay = new Promise<void>((resolve) => (sending = resolve));
    duringSend = async () => {
      sending();
      await gate;
    };
    r.start();
    await underWay;
    const stopped = r.stop();
    open();
    await stopped;
    const errors = logged.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.msg)).toEqual(['campaign runner batch failed; its recipients are claimed again when their lease ends']);
    expect((errors[0].obj.err as Error).message).toBe('event store unavailable');
    expect((await recipientsOf(run.id)).map((x) => x.status)).toEqual(['done']);
    expect(sends).toHaveLength(1);
  }, 60_000);

  it('a loop whose batch failed pauses before it claims again (no hot retries while sends fail)', async () => {
    const pauses = pausesOf();
    const r = runner({ idleMs: pause, loops: 1, batchSize: 1 });
    const [a, b] = await addContacts(2);
    const c = await campaign([{ send: tplId }]);
    const { run } = await runOf(c, [a, b]);
    brokenProgress.add(c.id);
    try {
      r.start();
      // The snapshot loop and the claim loop both pause: one claim, one failed send, then the pause.
      await until(() => pauses.count === 2 && sends.length > 0, 30_000);
      expect(sends).toHaveLength(1);
      expect((await recipientsOf(run.id)).map((x) => x.status).sort()).toEqual(['done', 'pending']);
    } finally {
      await r.stop();
      pauses.restore();
    }
  }, 60_000);

  it("uses the real clock unless given one", async () => {
    const [a] = await addContacts(1);
    const c = await campaign([{ delayHours: 1 }, { send: tplId }]);
    const { recipients } = await runOf(c, [a]);
    const before = Date.now();
    await createCampaignRunner(deps(), outbound, progress).tick();
    const after = Date.now();
    const row = await recipient(recipients[0].id);
    expect(row.status).toBe('waiting');
    expect(row.nextAt!.getTime()).toBeGreaterThanOrEqual(before + 3600_000);
    expect(row.nextAt!.getTime()).toBeLessThanOrEqual(after + 3600_000);
  });

  it('an idle loop looks again after a second unless set', async () => {
    const r = runner();
    r.start();
    try {
      const [a] = await addContacts(1);
      const c = await campaign([{ send: tplId }]);
      await runOf(c, [a]);
      await until(async () => (await campaignRow(c.id)).status === 'completed', 30_000);
    } finally {
      await r.stop();
    }
  }, 60_000);
});
