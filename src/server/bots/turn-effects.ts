/**
 * The end of a turn: its e-mails, its sends, its paused call and its events are queued in its transaction, and its
 * sends and call run from memory once it has committed. The network happens after the commit, never inside it.
 */
import { appendEvents } from '../repositories/event-log';
import type { Effects, Runtime, TurnScope } from './session-context';

export const noEffects = (): Effects => ({ requests: [], emails: [], calls: [], events: [] });

/**
 * Queues the turn's e-mails and its sends in its transaction: the sends as one `bots.deliver` job that commits
 * with the turn (no gap between the commit and the enqueue), run from memory by `runCommittedDelivery`, or by any
 * worker after runInSenderSeconds if this process dies first.
 */
export async function queueEffects(rt: Runtime, { tx, ws, fx }: TurnScope): Promise<void> {
  for (const mail of fx.emails) await rt.d.jobs.send('bots.email', { workspaceId: ws, ...mail }, { tx });
  if (fx.requests.length > 0) {
    const data = { workspaceId: ws, requests: fx.requests };
    const id = await rt.d.jobs.send('bots.deliver', data, { tx, runInSender: true });
    if (id) fx.delivery = { id, data };
  }
  await appendEvents(tx, ws, fx.events);
}

/** After the turn committed: its sends go out now, and its paused call is made, from memory. */
export function runCommittedDelivery(rt: Runtime, fx: Effects): void {
  if (fx.delivery) rt.d.jobs.runCommitted('bots.deliver', fx.delivery.id, fx.delivery.data);
  for (const call of fx.calls) rt.d.jobs.runCommitted('bots.call', call.id, call.data);
}
