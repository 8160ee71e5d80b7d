/**
 * `/webhooks/whatsapp`, Meta's callback URL (outside the REST table: Meta calls it, not a member). One URL
 * serves every connected number of every workspace; the payload's phone_number_id says whose it is.
 * - GET answers Meta's verification with the raw hub.challenge when hub.verify_token is WHATSAPP_VERIFY_TOKEN.
 * - POST checks X-Hub-Signature-256 over the raw body bytes (so this scope parses bodies as raw buffers),
 *   queues the delivery as a job and answers 200 at once.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { httpErrorNames } from '../../shared/errors';
import { verifyWebhookSignature } from '../whatsapp/signature';
import { WEBHOOK_PATH } from '../whatsapp/webhook-path';
import { jsonNestsDeeperThan, tooDeepMessage } from './json-depth';
import type { Metrics } from '../metrics/metrics';

export interface WebhookRouteOptions {
  verifyToken: string | undefined;
  appSecret: string | undefined;
  /** Queues a verified delivery; resolves once it is durably queued. */
  enqueue(payload: unknown): Promise<void>;
  /** Remembers that Meta's verification call succeeded (shown in WhatsApp settings). */
  onVerified?: () => Promise<void>;
  /** Counts each accepted delivery's acknowledgement time. */
  metrics?: Pick<Metrics, 'webhookAckSeconds'>;
}

const errorBody = (statusCode: number, message: string) => ({ statusCode, message, error: httpErrorNames[statusCode] ?? 'Error' });

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function registerWhatsappWebhook(app: FastifyInstance, opts: WebhookRouteOptions): Promise<void> {
  await app.register(async (scope) => {
    // Route-scoped: the signature is over the exact bytes Meta sent, so nothing may parse them first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    scope.get(
      WEBHOOK_PATH,
      {
        schema: {
          tags: ['webhooks'],
          summary: "Meta's webhook verification: answers hub.challenge when hub.verify_token matches WHATSAPP_VERIFY_TOKEN",
        },
      },
      async (request, reply) => {
        const q = request.query as Record<string, unknown>;
        const mode = q['hub.mode'];
        const token = q['hub.verify_token'];
        const challenge = q['hub.challenge'];
        if (
          opts.verifyToken &&
          mode === 'subscribe' &&
          typeof token === 'string' &&
          typeof challenge === 'string' &&
          sameText(token, opts.verifyToken)
        ) {
          // Meta needs its challenge back whatever happens to the record of it.
          await opts.onVerified?.().catch((err: unknown) => request.log.warn({ err }, 'could not record the webhook verification'));
          return reply.code(200).type('text/plain; charset=utf-8').send(challenge);
        }
        return reply.code(403).send(errorBody(403, 'Webhook verification failed'));
      },
    );

    scope.post(
      WEBHOOK_PATH,
      {
        schema: {
          tags: ['webhooks'],
          summary: 'WhatsApp webhook deliveries (messages, statuses, template status), signed with X-Hub-Signature-256',
        },
      },
      async (request, reply) => {
        if (!opts.appSecret) {
          request.log.error('a WhatsApp webhook arrived but WHATSAPP_APP_SECRET is not configured');
          return reply.code(503).send(errorBody(503, 'Webhooks are not configured on this server'));
        }
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!verifyWebhookSignature(opts.appSecret, raw, request.headers['x-hub-signature-256'])) {
          return reply.code(401).send(errorBody(401, 'Invalid webhook signature'));
        }
        let payload: unknown;
        try {
          const text = raw.toString('utf8');
          if (jsonNestsDeeperThan(text)) return reply.code(400).send(errorBody(400, tooDeepMessage));
          payload = JSON.parse(text);
        } catch {
          return reply.code(400).send(errorBody(400, 'The webhook body is not JSON'));
        }
        await opts.enqueue(payload);
        opts.metrics?.webhookAckSeconds.observe(reply.elapsedTime / 1000);
        return reply.code(200).send({ success: true });
      },
    );
  });
}
