/**
 * `/webhooks/whatsapp` on a bare Fastify instance (the `webhookRoute` part of the mutation score,
 * seconds per mutant): Meta's verification handshake, the signature over the raw bytes, the answers' words and
 * what is queued. The same route inside the whole app, with ingest behind it, is in webhooks.test.ts.
 */
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhookBody } from '../support/sandbox-webhooks';
import { registerWhatsappWebhook, type WebhookRouteOptions } from '../../src/server/http/whatsapp-webhook';
import { WEBHOOK_PATH } from '../../src/server/whatsapp/webhook-path';

const secret = 'app-secret-for-route';
const verifyToken = 'verify-me-please';
let app: FastifyInstance | null = null;

async function routeWith(opts: Partial<WebhookRouteOptions> = {}) {
  const queued: unknown[] = [];
  const verified: number[] = [];
  const warnings: unknown[] = [];
  const errors: unknown[] = [];
  /** every logged line as pino wrote it (the error a warning carries included) */
  const lines: { level: number; msg: string; err?: { message?: string } }[] = [];
  app = Fastify({
    logger: {
      level: 'warn',
      stream: {
        write: (line: string) => {
          const entry = JSON.parse(line) as { level: number; msg: string; err?: { message?: string } };
          lines.push(entry);
          (entry.level >= 50 ? errors : warnings).push(entry.msg);
        },
      },
    },
  });
  await registerWhatsappWebhook(app, {
    verifyToken,
    appSecret: secret,
    enqueue: async (payload) => {
      queued.push(payload);
    },
    onVerified: async () => {
      verified.push(Date.now());
    },
    ...opts,
  });
  await app.ready();
  return { app, queued, verified, warnings, errors, lines };
}

afterEach(async () => {
  await app?.close();
  app = null;
});

const verifyQuery = (over: Record<string, string> = {}) =>
  new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': verifyToken, 'hub.challenge': '1158201444', ...over }).toString();

const refused = { statusCode: 403, message: 'Webhook verification failed', error: 'Forbidden' };

describe('GET: Meta\'s verification', () => {
  it('answers the raw challenge as plain text when the token matches, and records the verification', async () => {
    const { app, verified } = await routeWith();
    const res = await app.inject({ method: 'GET', url: `${WEBHOOK_PATH}?${verifyQuery()}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('1158201444');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(verified).toHaveLength(1);
  });

  it('still answers the challenge when recording the verification fails, with a warning in the log', async () => {
    const { app, warnings, lines } = await routeWith({
      onVerified: async () => {
        throw new Error('database down');
      },
    });
    const res = await app.inject({ method: 'GET', url: `${WEBHOOK_PATH}?${verifyQuery()}` });
    expect([res.statusCode, res.body]).toEqual([200, '1158201444']);
    expect(warnings).toContain('could not record the webhook verification');
    // the warning carries the error, so whoever reads the log sees why
    expect(lines.find((l) => l.msg === 'could not record the webhook verification')?.err?.message).toBe('database down');
  });

  it('answers the challenge without anything to record it with', async () => {
    const { app } = await routeWith({ onVerified: undefined });
    const res = await app.inject({ method: 'GET', url: `${WEBHOOK_PATH}?${verifyQuery()}` });
    expect([res.statusCode, res.body]).toEqual([200, '1158201444']);
  });

  it('refuses with 403 a wrong, longer or shorter token, another mode, a missing part, and repeated parameters', async () => {
    const { app, verified } = await routeWith();
    for (const query of [
      verifyQuery({ 'hub.verify_token': 'verify-me-pleasE' }),
      verifyQuery({ 'hub.verify_token': `${verifyToken}x` }),
      verifyQuery({ 'hub.verify_token': verifyToken.slice(0, -1) }),
      verifyQuery({ 'hub.verify_token': '' }),
      verifyQuery({ 'hub.mode': 'unsubscribe' }),
      'hub.verify_token=verify-me-please&hub.challenge=1',
      'hub.mode=subscribe&hub.challenge=1',
      'hub.mode=subscribe&hub.verify_token=verify-me-please',
      `${verifyQuery()}&hub.verify_token=other`,
      `${verifyQuery()}&hub.challenge=2`,
      '',
    ]) {
      const res = await app.inject({ method: 'GET', url: `${WEBHOOK_PATH}?${query}` });
      expect(res.statusCode, query).toBe(403);
      expect(res.json(), query).toEqual(refused);
    }
    expect(verified).toEqual([]);
  });

  it('refuses every token when the server has no verify token configured', async () => {
    const { app } = await routeWith({ verifyToken: undefined });
    for (const token of ['', 'undefined', verifyToken]) {
      const res = await app.inject({ method: 'GET', url: `${WEBHOOK_PATH}?${verifyQuery({ 'hub.verify_token': token })}` });
      expect(res.statusCode).toBe(403);
    }
    const empty = await routeWith({ verifyToken: '' });
    const res = await empty.app.inject({ method: 'GET', url: `${WEBHOOK_PATH}?${verifyQuery({ 'hub.verify_token': '' })}` });
    expect(res.statusCode).toBe(403);
  });
});

describe('POST: deliveries', () => {
  const delivery = { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: { text: '{"not": "parsed before"}' } }] }] };

  const post = (app: FastifyInstance, raw: string | Buffer, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: WEBHOOK_PATH, payload: raw, headers: { 'content-type': 'application/json', ...headers } });

  it('queues a delivery signed over its exact bytes and answers 200 { success: true }', async () => {
    const { app, queued } = await routeWith();
    // unusual spacing: a re-serialised body would not match the signature
    const raw = JSON.stringify(delivery, null, 3);
    const res = await post(app, raw, { 'x-hub-signature-256': signWebhookBody(secret, raw) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(queued).toEqual([delivery]);
  });

  it('reads the body as bytes whatever its content type says', async () => {
    const { app, queued } = await routeWith();
    const raw = JSON.stringify(delivery);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream']) {
      const res = await post(app, raw, { 'content-type': type, 'x-hub-signature-256': signWebhookBody(secret, raw) });
      expect(res.statusCode, type).toBe(200);
    }
    expect(queued).toEqual([delivery, delivery, delivery]);
  });

  it('refuses a missing, wrong or foreign signature with 401 and queues nothing', async () => {
    const { app, queued } = await routeWith();
    const raw = JSON.stringify(delivery);
    for (const signature of [undefined, 'sha256=00', signWebhookBody('another-secret', raw), signWebhookBody(secret, `${raw} `)]) {
      const res = await post(app, raw, signature ? { 'x-hub-signature-256': signature } : {});
      expect(res.statusCode, String(signature)).toBe(401);
      expect(res.json()).toEqual({ statusCode: 401, message: 'Invalid webhook signature', error: 'Unauthorized' });
    }
    // an empty body is checked like any other
    const empty = await app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'x-hub-signature-256': signWebhookBody(secret, 'x') } });
    expect(empty.statusCode).toBe(401);
    expect(queued).toEqual([]);
  });

  it('answers 503 and logs an error when the server has no app secret, queueing nothing', async () => {
    const { app, queued, errors } = await routeWith({ appSecret: undefined });
    const raw = JSON.stringify(delivery);
    const res = await post(app, raw, { 'x-hub-signature-256': signWebhookBody('', raw) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ statusCode: 503, message: 'Webhooks are not configured on this server', error: 'Service Unavailable' });
    expect(errors).toContain('a WhatsApp webhook arrived but WHATSAPP_APP_SECRET is not configured');
    expect(queued).toEqual([]);
  });

  it('refuses a signed body that is not JSON, or nests too deep, with 400 and queues nothing', async () => {
    const { app, queued } = await routeWith();
    for (const raw of ['{"entry": [', 'hello']) {
      const res = await post(app, raw, { 'x-hub-signature-256': signWebhookBody(secret, raw) });
      expect(res.statusCode, raw).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, message: 'The webhook body is not JSON', error: 'Bad Request' });
    }
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    const res = await post(app, deep, { 'x-hub-signature-256': signWebhookBody(secret, deep) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, message: 'The JSON body nests deeper than 64 levels', error: 'Bad Request' });
    const ok = `${'['.repeat(64)}${']'.repeat(64)}`;
    expect((await post(app, ok, { 'x-hub-signature-256': signWebhookBody(secret, ok) })).statusCode).toBe(200);
    expect(queued).toHaveLength(1);
  });

  it('answers only after the delivery is queued, and fails when queueing fails', async () => {
    let release: () => void = () => undefined;
    let queuedAt = 0;
    const { app } = await routeWith({
      enqueue: () =>
        new Promise<void>((resolve) => {
          release = () => {
            queuedAt = Date.now();
            resolve();
          };
        }),
    });
    const raw = JSON.stringify(delivery);
    const pending = post(app, raw, { 'x-hub-signature-256': signWebhookBody(secret, raw) });
    await new Promise((r) => setTimeout(r, 50));
    expect(queuedAt).toBe(0);
    release();
    expect((await pending).statusCode).toBe(200);

    const failing = await routeWith({
      enqueue: async () => {
        throw new Error('queue down');
      },
    });
    expect((await post(failing.app, raw, { 'x-hub-signature-256': signWebhookBody(secret, raw) })).statusCode).toBe(500);
  });
});

describe('the API reference', () => {
  it("documents Meta's two webhook calls under 'webhooks' with what each does", async () => {
    // The app's /docs page is generated from each route's schema (app/http-setup.ts registers @fastify/swagger first).
    app = Fastify();
    await app.register(swagger, { openapi: { info: { title: 'Parley API', version: '1' } } });
    await registerWhatsappWebhook(app, { verifyToken, appSecret: secret, enqueue: async () => undefined });
    await app.ready();
    const doc = app.swagger() as { paths: Record<string, Record<string, { tags?: string[]; summary?: string }>> };
    const { get, post } = doc.paths[WEBHOOK_PATH];
    expect(get).toMatchObject({
      tags: ['webhooks'],
      summary: "Meta's webhook verification: answers hub.challenge when hub.verify_token matches WHATSAPP_VERIFY_TOKEN",
    });
    expect(post).toMatchObject({
      tags: ['webhooks'],
      summary: 'WhatsApp webhook deliveries (messages, statuses, template status), signed with X-Hub-Signature-256',
    });
  });
});
