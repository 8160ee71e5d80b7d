/** The network side of a live session, after its turn committed: its sends and its e-mails. */
import type { Outbound } from '../messaging/outbound';
import type { OutboundRequest } from '../messaging/outbound-request';
import type { BotMail, BotRuntimeDeps } from './session-context';

/**
 * Sends in order, each once (a replayed key sends nothing); stops at the first failure, for the job to retry.
 * Deliveries of one conversation run one after the other in this process (turns' jobs run concurrently).
 */
export function sessionDelivery(outbound: Pick<Outbound, 'send'>) {
  const chains = new Map<string, Promise<void>>();
  return async function deliver(requests: OutboundRequest[]): Promise<void> {
    const key = requests[0]?.target && 'conversationId' in requests[0].target ? requests[0].target.conversationId : '';
    const previous = chains.get(key) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(async () => {
      for (const req of requests) await outbound.send(req);
    });
    chains.set(key, mine);
    try {
      await mine;
    } finally {
      if (chains.get(key) === mine) chains.delete(key);
    }
  };
}

/** A SendEmail node's mail through the mailer (SMTP_URL). */
export const sendBotMail = (d: Pick<BotRuntimeDeps, 'mailer'>, mail: BotMail) =>
  d.mailer.send({ to: mail.to.join(', '), cc: mail.cc.length ? mail.cc.join(', ') : undefined, bcc: mail.bcc.length ? mail.bcc.join(', ') : undefined, subject: mail.subject, text: mail.text });
