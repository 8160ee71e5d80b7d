/** The network side of a live session, after its turn committed: its sends and its e-mails. */
import type { Outbound } from '../messaging/outbound';
import type { OutboundRequest } from '../messaging/outbound-request';
import { SendInFlightError } from '../messaging/send-outcomes';
import * as calls from '../repositories/bot-calls';
import { GraphApiError } from '../whatsapp/graph-errors';
import type { BotRuntimeDeps, KeyedBotMail } from './session-context';

/** A failure that waiting may cure (Meta did not take the message for a passing reason, or it is being sent). */
const passing = (err: unknown) => err instanceof SendInFlightError || (err instanceof GraphApiError && err.retryable && !err.mayHaveArrived);

/** The session a bot send belongs to, from its key `bot:<sessionId>:<step>:<block>`. */
export const sessionOfKey = (key: string): string | null => /^bot:([0-9a-f-]{36}):/.exec(key)?.[1] ?? null;

/** What a delivery does when a send fails for good: ends the session (the conversation then needs a person). */
export type OnSendFailed = (workspaceId: string, sessionId: string, reason: string) => Promise<void>;

/**
 * Sends in order, each once (a replayed key sends nothing). A send that fails for good ends the turn there: the
 * rest are not sent and the session ends (`onFailed`), so it never waits for an answer to a question nobody got.
 * A passing failure is retried by the job (the sends already made replay), until its last attempt, which ends the
 * session too. Deliveries of one conversation run one after the other in this process.
 */
export function sessionDelivery(outbound: Pick<Outbound, 'send'>, onFailed: OnSendFailed) {
  const chains = new Map<string, Promise<void>>();
  async function sendAll(workspaceId: string, requests: OutboundRequest[], lastAttempt: boolean) {
    for (const req of requests) {
      try {
        await outbound.send(req);
      } catch (err) {
        if (passing(err) && !lastAttempt) throw err;
        const sessionId = sessionOfKey(req.idempotencyKey);
        if (!sessionId) throw err;
        await onFailed(workspaceId, sessionId, (err as Error).message);
        return;
      }
    }
  }
  return async function deliver(data: { workspaceId: string; requests: OutboundRequest[] }, lastAttempt = false): Promise<void> {
    const first = data.requests[0]?.target;
    const key = first && 'conversationId' in first ? first.conversationId : '';
    const previous = chains.get(key) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => sendAll(data.workspaceId, data.requests, lastAttempt));
    chains.set(key, mine);
    try {
      await mine;
    } finally {
      if (chains.get(key) === mine) chains.delete(key);
    }
  };
}

/** The Message-ID of a bot e-mail: its key, so every attempt of the same e-mail carries the same one. */
export function messageIdOf(key: string, from: string): string {
  const domain = /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'parley.local';
  return `<${key.replace(/[^A-Za-z0-9.-]/g, '.')}@${domain}>`;
}

/** A claim on an e-mail older than this belonged to a process that died while sending it: it is sent again. */
const mailClaimStaleMs = 5 * 60_000;

/**
 * A SendEmail node's mail through the mailer (SMTP_URL), from the workspace's address (else SMTP_FROM), sent once:
 * recorded under its key before sending and marked sent after, so a job run again skips it. A mail whose claim
 * is held by a run still going is retried later; one whose SMTP server refused is given back for the retry.
 */
export async function sendBotMail(d: Pick<BotRuntimeDeps, 'mailer' | 'db' | 'config'>, mail: KeyedBotMail & { workspaceId: string }): Promise<void> {
  const db = d.db.db;
  const from = (await calls.botEmailFromOf(db, mail.workspaceId)) ?? d.config.smtpFrom;
  const send = (messageId?: string) =>
    d.mailer.send({ from, messageId, to: mail.to.join(', '), cc: mail.cc.length ? mail.cc.join(', ') : undefined, bcc: mail.bcc.length ? mail.bcc.join(', ') : undefined, subject: mail.subject, text: mail.text });
  // A job queued before e-mails had keys: sent as before.
  if (!mail.key || !mail.sessionId) return send();
  const { key, workspaceId } = mail;
  await calls.recordCall(db, { workspaceId, sessionId: mail.sessionId, key, kind: 'email', nodeId: '', step: Number(key.split(':')[2] ?? 0), request: { to: mail.to, cc: mail.cc, bcc: mail.bcc, subject: mail.subject } });
  const attempts = await calls.claimCall(db, workspaceId, key, new Date(Date.now() - mailClaimStaleMs));
  if (attempts === null) {
    if ((await calls.callByKey(db, workspaceId, key))?.outcome) return;
    throw new Error(`bot e-mail ${key} is being sent by another run`);
  }
  const messageId = messageIdOf(key, from);
  try {
    await send(messageId);
  } catch (err) {
    await calls.releaseCall(db, workspaceId, key);
    throw err;
  }
  await calls.recordOutcome(db, workspaceId, key, { sent: true, messageId, from });
}
