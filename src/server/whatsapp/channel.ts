/**
 * The WhatsApp channel's shared parts: the secret box for tokens, an account's Graph credentials, inbound
 * media downloads, and the webhook queue (a durable job when the job queue is available).
 */
import { HttpError } from '../errors';
import { SecretsError, createSecretBox, type SecretBox } from '../crypto/secrets';
import type { AccountRow } from '../repositories/channel';
import type { ChannelDeps, MediaDownloader } from './channel-deps';
import { WEBHOOK_JOB, webhookProcessor } from './ingest';
import type { GraphClient, GraphCredentials } from './graph-client';

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

  const processWebhook = webhookProcessor({ ...d, media: d.media ?? media });
  d.jobs.register<{ payload: unknown; receivedAt?: number }>(WEBHOOK_JOB, (data, job) =>
    processWebhook(data.payload, data.receivedAt, job.retryCount),
  );

  return {
    hasSecrets: box !== null,
    sealToken,
    credsOf,
    media,
    processWebhook,
    /** Queues a verified delivery as a durable job (answered 200 only once it is queued). */
    async enqueueWebhook(payload: unknown): Promise<void> {
      await d.jobs.send(WEBHOOK_JOB, { payload, receivedAt: Date.now() });
    },
  };
}
export type Channel = ReturnType<typeof createChannel>;
