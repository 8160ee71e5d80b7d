/**
 * The WhatsApp channel's shared parts: the secret box for tokens, an account's Graph credentials, inbound
 * media downloads, the webhook queue (a durable job, run by the inbound pipeline: inbound-pipeline.ts), and read
 * receipts (a durable job too).
 */
import { HttpError } from '../errors';
import { SecretsError, createSecretBox, type SecretBox } from '../crypto/secrets';
import * as ch from '../repositories/channel';
import type { AccountRow } from '../repositories/channel';
import type { ChannelDeps } from './channel-deps';
import type { MediaDownloader } from './inbound-contents';
import type { GraphClient, GraphCredentials } from './graph-client';
import { GraphApiError } from './graph-errors';

import type { JobData } from '../jobs/names';

export const secretsMissing = () => new HttpError(503, 'SECRETS_KEY is not configured');

export function createChannel(d: ChannelDeps, graph: GraphClient) {
  const box: SecretBox | null = createSecretBox(d.config.secretsKey);

  /** The token is bound to its phone number id, so a ciphertext moved to another row does not open. */
  function sealToken(token: string, phoneNumberId: string): string {
    if (!box) throw secretsMissing();
    return box.seal(token, phoneNumberId);
  }

  function credsOf(account: AccountRow): GraphCredentials {
    if (!box) throw secretsMissing();
    let token: string;
    try {
      token = box.open(account.tokenCiphertext, account.phoneNumberId);
    } catch (err) {
      if (!(err instanceof SecretsError)) throw err;
      d.log.error({ accountId: account.id }, 'a WhatsApp token cannot be decrypted with the configured SECRETS_KEY');
      throw new HttpError(409, 'The token of this WhatsApp account cannot be read; connect the number again');
    }
    return {
      token,
      phoneNumberId: account.phoneNumberId,
      wabaAccountId: account.wabaAccountId,
      appId: account.appId,
    };
  }

  /** Inbound media through the Graph media API (the 5-minute URL needs the token too). */
  const media: MediaDownloader = {
    async download(account, mediaId) {
      const file = await graph.downloadMedia(credsOf(account), mediaId);
      return { data: file.data, mimeType: file.mimeType };
    },
  };

  /**
   * The `whatsapp.mark-read` job: marks the customer's newest message of the conversation read at WhatsApp (blue
   * ticks on their phone; earlier messages count as read with it). Meta refusing it for good (message too old,
   * number gone) is logged and dropped: a missing receipt must not retry forever.
   */
  async function markRead({ workspaceId, conversationId }: JobData<'whatsapp.mark-read'>): Promise<void> {
    const conversation = await ch.conversation(d.db.db, workspaceId, conversationId);
    if (!conversation?.whatsappAccountId) return;
    const [message, account] = await Promise.all([
      ch.latestInbound(d.db.db, workspaceId, conversationId),
      ch.account(d.db.db, workspaceId, conversation.whatsappAccountId),
    ]);
    if (!message?.waMessageId || !account) return;
    try {
      await graph.markRead(credsOf(account), message.waMessageId);
    } catch (err) {
      if (err instanceof GraphApiError && !err.retryable) {
        d.log.warn({ conversationId, code: err.code, kind: err.kind }, 'WhatsApp refused a read receipt; not retried');
        return;
      }
      throw err;
    }
  }

  /**
   * WhatsApp's typing indicator for the customer (with the read receipt of their newest message, as
   * the Cloud API takes it). Errors are the caller's to log: an indicator is never retried.
   */
  async function showTyping({ workspaceId, conversationId }: { workspaceId: string; conversationId: string }): Promise<void> {
    const conversation = await ch.conversation(d.db.db, workspaceId, conversationId);
    if (!conversation?.whatsappAccountId) return;
    const [message, account] = await Promise.all([
      ch.latestInbound(d.db.db, workspaceId, conversationId),
      ch.account(d.db.db, workspaceId, conversation.whatsappAccountId),
    ]);
    if (!message?.waMessageId || !account) return;
    await graph.markRead(credsOf(account), message.waMessageId, { typingIndicator: true });
  }

  return {
    hasSecrets: box !== null,
    showTyping,
    sealToken,
    credsOf,
    media,
    markRead,
    /**
     * Queues a verified delivery as a durable job (answered 200 only once it is queued). Deliveries arriving
     * together share one INSERT (the queue's group commit), and this process's workers are woken at once.
     */
    async enqueueWebhook(payload: unknown): Promise<void> {
      await d.jobs.send('whatsapp.webhook', { payload, receivedAt: Date.now() });
    },
    /** Queues the read receipt for a conversation an agent has just answered; never fails the caller. */
    async queueReadReceipt(workspaceId: string, conversationId: string): Promise<void> {
      try {
        await d.jobs.send('whatsapp.mark-read', { workspaceId, conversationId });
      } catch (err) {
        d.log.warn({ err, conversationId }, 'could not queue a read receipt');
      }
    },
  };
}
export type Channel = ReturnType<typeof createChannel>;
