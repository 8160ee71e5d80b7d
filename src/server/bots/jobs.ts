/** Bots' durable jobs (session-runtime.ts; their handlers are registered at the composition root). */
import { z } from 'zod';
import { defineJob } from '../jobs/names';
import { OutboundRequest } from '../messaging/outbound-request';

const uuid = z.uuid();

export const botJobs = {
  /** A conversation's new inbound messages for its bot session (queued after the inbound batch commits). */
  'bots.turn': defineJob(z.object({ workspaceId: uuid, conversationId: uuid, from: z.string(), upTo: z.string() }), {
    retryLimit: 5,
    retryDelaySeconds: 2,
    concurrency: 4,
    runInSenderSeconds: 20,
  }),
  /**
   * A conversation an agent handed to a bot from live chat (queued in the assignment's transaction, run at once by
   * the sender): starts a session at Start on the bot's published version; does nothing if the conversation has
   * moved on (assigned elsewhere, a session already running).
   */
  'bots.assigned': defineJob(z.object({ workspaceId: uuid, conversationId: uuid, botId: uuid }), {
    retryLimit: 5,
    retryDelaySeconds: 2,
    concurrency: 4,
    runInSenderSeconds: 20,
  }),
  /** A session's no-answer timeout or expiry, due at its time; does nothing when the session moved on. */
  'bots.timeout': defineJob(z.object({ workspaceId: uuid, sessionId: uuid, step: z.number().int(), kind: z.enum(['noAnswer', 'expire']) }), { retryLimit: 5 }),
  /** The durable path of a bot turn's sends, in order, each keyed (a send done already is not repeated). */
  'bots.deliver': defineJob(z.object({ workspaceId: uuid, requests: z.array(OutboundRequest) }), {
    retryLimit: 5,
    retryDelaySeconds: 5,
    retryBackoff: true,
    concurrency: 8,
    runInSenderSeconds: 20,
  }),
  /**
   * A walk paused at an HTTP node: the call (recorded in the turn, made here outside any transaction, bounded by
   * the node's timeout) and then the walk resumed in a short transaction of its own. Many at once: each mostly waits.
   */
  'bots.call': defineJob(z.object({ workspaceId: uuid, sessionId: uuid, key: z.string().min(1) }), {
    // 10, 20, 40 s...: past the longest call (30 s) and its margin, so a run that died mid-call is seen as such.
    retryLimit: 5,
    retryDelaySeconds: 10,
    retryBackoff: true,
    concurrency: 32,
    runInSenderSeconds: 20,
  }),
  /** A SendEmail node's e-mail, sent once under its key however often the job runs. */
  'bots.email': defineJob(
    z.object({ workspaceId: uuid, sessionId: uuid.optional(), key: z.string().optional(), to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()), subject: z.string(), text: z.string() }),
    { retryLimit: 3, retryDelaySeconds: 30 },
  ),
};
type Jobs = typeof botJobs;

declare module '../jobs/names' {
  interface JobRegistry {
    'bots.turn': Jobs['bots.turn'];
    'bots.assigned': Jobs['bots.assigned'];
    'bots.timeout': Jobs['bots.timeout'];
    'bots.deliver': Jobs['bots.deliver'];
    'bots.call': Jobs['bots.call'];
    'bots.email': Jobs['bots.email'];
  }
}
