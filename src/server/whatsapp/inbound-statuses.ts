/**
 * Delivery statuses (sent, delivered, read, failed) of the messages Parley sent: applied in one transaction per
 * workspace, never backwards, with the registered handlers' status phase inside that transaction.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import * as ch from '../repositories/channel';
import * as conv from '../repositories/conversations';
import { appendEvents, type NewEvent } from '../repositories/event-log';
import { failureReasonOf } from './failure-reasons';
import { type AppliedStatus, DeliveryWaits, type InboundHandler } from './inbound-pipeline';
import type { StatusUpdate } from './webhook-payload';
import type { Metrics } from '../metrics/metrics';

/**
 * A status can overtake the send it is about: Meta (or the sandbox) may deliver `sent` before the send's answer
 * has been stored. A status for an unknown wamid younger than this waits for it instead of being dropped.
 */
const statusGraceMs = 120_000;
/**
 * How long a delivery with such a status waits before its next try, by how many times it waited already (about
 * two minutes in all, the grace). Its own schedule, not the job's retry delay: a busy server can take seconds to
 * store a send's answer, and a status dropped then is lost for good.
 */
export const statusWaitSeconds = [1, 2, 4, 8, 16, 32, 64];
export class StatusNotYetKnown extends DeliveryWaits {
  /** `waits`: how many times its delivery waited already. */
  constructor(waits: number) {
    super('a status arrived for a message that is not stored yet; retried later', statusWaitSeconds[Math.min(waits, statusWaitSeconds.length - 1)]);
  }
}

/** Meta's timestamp (seconds, as a string); now when it has none. */
export function timeOf(ts: string | undefined): Date {
  const n = ts ? Number(ts) : NaN;
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000) : new Date();
}

export interface StatusesDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** The lag of each status that changed a message (Meta's timestamp to stored). */
  metrics?: Pick<Metrics, 'webhookLagSeconds'>;
}

export interface StatusOf {
  account: ch.AccountRow;
  s: StatusUpdate;
}

const applicable = (s: StatusUpdate): s is StatusUpdate & { status: AppliedStatus['status'] } =>
  s.status === 'sent' || s.status === 'delivered' || s.status === 'read' || s.status === 'failed';

/** Positions in `list` of the statuses Parley applies, by workspace. */
function byWorkspace(list: StatusOf[]): Map<string, number[]> {
  const byWs = new Map<string, number[]>();
  list.forEach(({ account, s }, i) => {
    if (!applicable(s)) return;
    const l = byWs.get(account.workspaceId) ?? [];
    l.push(i);
    byWs.set(account.workspaceId, l);
  });
  return byWs;
}

export function inboundStatuses(d: StatusesDeps, handlers: InboundHandler[]) {
  /**
   * One workspace's statuses in one transaction, applied in wamid order (the same row lock order in every
   * batch; statuses never move backwards, so the order of one message's statuses changes nothing), the handlers'
   * status phase next, their `message.status` events appended last in one insert. Answers the wamids changed.
   */
  async function applyWorkspace(ws: string, statuses: StatusUpdate[]): Promise<Set<string>> {
    const ordered = statuses
      .map((s, i) => ({ s, i }))
      .sort((a, b) => (a.s.id < b.s.id ? -1 : a.s.id > b.s.id ? 1 : a.i - b.i))
      .map(({ s }) => s);
    const changed = new Set<string>();
    await d.db.transaction(async (tx) => {
      const events: NewEvent[] = [];
      const applied: AppliedStatus[] = [];
      for (const s of ordered) {
        if (!applicable(s)) continue;
        const reason = s.status === 'failed' ? failureReasonOf(s.errors) : null;
        const updated = await ch.applyStatus(tx, ws, s.id, s.status, reason);
        const pricing = s.pricing ? { value: s.pricing, at: Math.floor(timeOf(s.timestamp).getTime() / 1000) } : undefined;
        applied.push({ wamid: s.id, status: s.status, failure: { code: s.errors?.[0]?.code ?? null, reason }, pricing, at: timeOf(s.timestamp) });
        if (updated) {
          changed.add(s.id);
          events.push({ type: 'message.status', payload: { message: conv.toMessage(updated) } });
        }
      }
      for (const h of handlers) await h.onStatuses?.(tx, ws, applied);
      await appendEvents(tx, ws, events);
    });
    return changed;
  }

  /**
   * The statuses of a batch of deliveries, one transaction per workspace (one per status before: a bot's or a
   * campaign's sent / delivered / read webhooks cost a commit each and took the workspace's event lock once
   * per status). Answers, by position in `list`, false for a status about a wamid not stored yet but so recent
   * that its send may still be committing, or the error to retry its delivery with.
   */
  async function applyStatuses(list: StatusOf[]): Promise<(boolean | Error)[]> {
    const out: (boolean | Error)[] = list.map(() => true);
    for (const [ws, indexes] of byWorkspace(list)) {
      let changed: Set<string>;
      try {
        changed = await applyWorkspace(ws, indexes.map((i) => list[i].s));
      } catch (err) {
        for (const i of indexes) out[i] = err instanceof Error ? err : new Error(String(err));
        continue;
      }
      const storedAt = Date.now();
      for (const i of indexes) {
        const s = list[i].s;
        if (changed.has(s.id)) d.metrics?.webhookLagSeconds.observe({ kind: 'status' }, Math.max(0, storedAt - timeOf(s.timestamp).getTime()) / 1000);
      }
      const unknown = [...new Set(indexes.map((i) => list[i].s.id).filter((w) => !changed.has(w)))];
      const stored = unknown.length > 0 ? await ch.storedWamids(d.db.db, ws, unknown) : new Set<string>();
      for (const i of indexes) {
        const s = list[i].s;
        if (changed.has(s.id) || stored.has(s.id)) continue;
        out[i] = Date.now() - timeOf(s.timestamp).getTime() > statusGraceMs;
      }
    }
    return out;
  }

  return { applyStatuses };
}
