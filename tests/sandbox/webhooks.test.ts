// What the sandbox sends to Parley's webhook: Meta's envelope, signed with the app secret over the raw body,
// in order, retried when the receiver fails; customers' messages of every kind; status progressions; reviews.
import { execFile } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, sandboxAccount, startSandbox } from '../../src/sandbox';
import { type GraphCredentials, createGraphClient, messages } from '../../src/server/whatsapp/graph-client';

const secret = 'webhook-test-secret';
const creds: GraphCredentials = {
  token: sandboxAccount.token,
  phoneNumberId: sandboxAccount.phoneNumberId,
  wabaAccountId: sandboxAccount.wabaAccountId,
  appId: sandboxAccount.appId,
};

/* eslint-disable @typescript-eslint/no-explicit-any -- webhook bodies are read as loose JSON here */
interface Received {
  raw: string;
  body: any;
  signatureValid: boolean;
}

/** A webhook receiver on 127.0.0.1 that checks the signature itself and can be told to fail. */
class Receiver {
  readonly got: Received[] = [];
  failNext = 0;
  server: Server;
  url = '';
  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        if (this.failNext > 0) {
          this.failNext--;
          res.writeHead(500).end();
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
        const given = Buffer.from(String(req.headers['x-hub-signature-256'] ?? ''));
        const signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
        this.got.push({ raw, body: JSON.parse(raw), signatureValid });
        res.writeHead(signatureValid ? 200 : 401).end();
      });
    });
  }
  async listen() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks/whatsapp`;
  }
  close() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
  /** `value` of every `messages` change, flattened. */
  values(field = 'messages') {
    return this.got.flatMap((g) => g.body.entry.flatMap((e: any) => e.changes.filter((c: any) => c.field === field).map((c: any) => c.value)));
  }
  statuses(wamid: string) {
    return this.values().flatMap((v: any) => v.statuses ?? []).filter((s: any) => s.id === wamid);
  }
}

let receiver: Receiver;
let sandbox: Sandbox;
const client = () => createGraphClient({ baseUrl: sandbox.baseUrl, retries: 0 });

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.listen();
  sandbox = await startSandbox({ appSecret: secret, webhookUrl: receiver.url, statusDelayMs: 5, templateReviewDelayMs: 30, webhookRetryDelayMs: 10 });
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});
afterEach(() => sandbox.settle());

describe('webhook envelope and signature', () => {
  it('a customer text arrives signed, in Meta envelope, with profile name and phone number id', async () => {
    const { id, webhook } = await sandbox.customers.say('+1 415 555 0150', 'Where is my order?', { name: 'Ada Lovelace' });
    expect(webhook.delivered).toBe(true);
    const last = receiver.got.at(-1)!;
    expect(last.signatureValid).toBe(true);
    expect(last.body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: sandboxAccount.wabaAccountId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '16505550100', phone_number_id: sandboxAccount.phoneNumberId },
                // 2026: the business-scoped user id always, beside the phone Meta shares.
                contacts: [{ profile: { name: 'Ada Lovelace' }, wa_id: '14155550150', user_id: expect.stringMatching(/^US\.\d{20}$/) }],
                messages: [
                  {
                    from: '14155550150',
                    from_user_id: expect.stringMatching(/^US\.\d{20}$/),
                    id,
                    timestamp: expect.stringMatching(/^\d{10}$/),
                    type: 'text',
                    text: { body: 'Where is my order?' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
  });

  it('a receiver checking with another secret refuses it: the signature really covers the raw body', async () => {
    const { webhook } = await sandbox.customers.say('14155550150', 'again');
    const wrong = `sha256=${createHmac('sha256', 'another-secret').update(webhook.rawBody).digest('hex')}`;
    expect(webhook.signature).not.toBe(wrong);
    expect(webhook.signature).toBe(`sha256=${createHmac('sha256', secret).update(webhook.rawBody).digest('hex')}`);
  });

  it('retries a failing receiver and keeps later webhooks behind the retried one', async () => {
    receiver.failNext = 2;
    const first = sandbox.customers.say('14155550151', 'first');
    const second = sandbox.customers.say('14155550151', 'second');
    const [a, b] = await Promise.all([first, second]);
    expect(a.webhook.attempts).toBe(3);
    expect(a.webhook.delivered && b.webhook.delivered).toBe(true);
    const texts = receiver.values().flatMap((v: any) => v.messages ?? []).filter((m: any) => m.from === '14155550151').map((m: any) => m.text.body);
    expect(texts).toEqual(['first', 'second']);
  });

  it('gives up after the configured attempts and says so in the record', async () => {
    const flaky = await startSandbox({ appSecret: secret, webhookUrl: receiver.url, webhookAttempts: 2, webhookRetryDelayMs: 1 });
    try {
      receiver.failNext = 5;
      const { webhook } = await flaky.customers.say('14155550152', 'lost');
      expect([webhook.delivered, webhook.attempts, webhook.status]).toEqual([false, 2, 500]);
    } finally {
      receiver.failNext = 0;
      await flaky.close();
    }
  });
});

describe('outbound message statuses', () => {
  it('sent, delivered, read in that order, with pricing for a service message', async () => {
    await sandbox.customers.say('14155550160', 'hello');
    const { wamid } = await client().sendMessage(creds, '14155550160', messages.text('Hi there'), { bizOpaqueCallbackData: 'm-1' });
    await sandbox.settle();
    const statuses = receiver.statuses(wamid);
    expect(statuses.map((s: any) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(statuses[0]).toMatchObject({ recipient_id: '14155550160', biz_opaque_callback_data: 'm-1', pricing: { category: 'service', pricing_model: 'PMP' } });
    expect(sandbox.sent.find((m) => m.id === wamid)!.status).toBe('read');
  });

  it('an injected failure gives one failed status with Meta error item', async () => {
    await sandbox.customers.say('14155550161', 'hello');
    sandbox.injectFailure({ mode: 'async', code: 131026, details: 'Receiver is incapable of receiving this message' });
    const { wamid } = await client().sendMessage(creds, '14155550161', messages.text('will fail'));
    await sandbox.settle();
    const statuses = receiver.statuses(wamid);
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toMatchObject({ status: 'failed', errors: [{ code: 131026, error_data: { details: 'Receiver is incapable of receiving this message' } }] });
  });

  it('in async window mode a send outside the window is accepted, then fails with 131047 by webhook', async () => {
    const asyncBox = await startSandbox({ appSecret: secret, webhookUrl: receiver.url, windowErrorMode: 'async', statusDelayMs: 0 });
    try {
      const c = createGraphClient({ baseUrl: asyncBox.baseUrl, retries: 0 });
      const { wamid } = await c.sendMessage(creds, '14155550162', messages.text('hello stranger'));
      await asyncBox.settle();
      expect(receiver.statuses(wamid)).toMatchObject([{ status: 'failed', errors: [{ code: 131047 }] }]);
    } finally {
      await asyncBox.close();
    }
  });

  it('a sync injected failure answers that Graph error to the next send', async () => {
    sandbox.injectFailure({ code: 131000, details: 'Something went wrong' });
    await sandbox.customers.say('14155550163', 'hi');
    const err = await client().sendMessage(creds, '14155550163', messages.text('x')).catch((e) => e);
    expect([err.httpStatus, err.code, err.kind]).toEqual([400, 131000, 'unavailable']);
  });
});

describe('template review webhooks', () => {
  it('APPROVED and REJECTED arrive as message_template_status_update', async () => {
    const ok = await client().createTemplate(creds, { name: 'shipping_note', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Shipped' }] });
    const bad = await client().createTemplate(creds, { name: 'reject_this_one', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Buy' }] });
    await sandbox.settle();
    const updates = receiver.values('message_template_status_update');
    expect(updates).toContainEqual({
      event: 'APPROVED',
      message_template_id: Number(ok.id),
      message_template_name: 'shipping_note',
      message_template_language: 'en_US',
      message_template_category: 'UTILITY',
      reason: 'NONE',
    });
    expect(updates).toContainEqual(expect.objectContaining({ event: 'REJECTED', message_template_id: Number(bad.id), reason: 'INVALID_FORMAT' }));
    expect(receiver.got.every((g) => g.signatureValid)).toBe(true);
  });

  it('a configurable review rule decides instead of the name', async () => {
    const strict = await startSandbox({
      appSecret: secret,
      templateReviewDelayMs: 0,
      reviewTemplate: (t) => (t.category === 'MARKETING' ? { status: 'REJECTED', reason: 'PROMOTIONAL' } : { status: 'APPROVED' }),
    });
    try {
      const c = createGraphClient({ baseUrl: strict.baseUrl, retries: 0 });
      await c.createTemplate(creds, { name: 'promo', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale' }] });
      await strict.settle();
      expect(strict.templates.find((t) => t.name === 'promo')).toMatchObject({ status: 'REJECTED', rejectedReason: 'PROMOTIONAL' });
    } finally {
      await strict.close();
    }
  });
});

describe('simulated customers', () => {
  const wa = '14155550170';

  it('replies to buttons, lists and flows refer to the message they answer', async () => {
    await sandbox.customers.say(wa, 'menu please', { name: 'Katherine Johnson' });
    const c = client();
    const b = await c.sendMessage(creds, wa, messages.buttons({ body: 'Happy?', buttons: [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'No' }] }));
    await sandbox.customers.send(wa, { type: 'button_reply', index: 1 });
    const l = await c.sendMessage(creds, wa, messages.list({ body: 'Pick', button: 'Open', sections: [{ rows: [{ id: 'r1', title: 'One', description: 'First' }] }] }));
    await sandbox.customers.send(wa, { type: 'list_reply' });
    const f = await c.sendMessage(creds, wa, messages.flow({ body: 'Book', flowName: 'Book an appointment', cta: 'Book', flowToken: 'conv-9', screen: 'WELCOME' }));
    await sandbox.customers.send(wa, { type: 'nfm_reply', response: { date: '2026-12-01' } });

    const inbound = receiver.values().flatMap((v: any) => v.messages ?? []).filter((m: any) => m.from === wa && m.type === 'interactive');
    expect(inbound[0]).toMatchObject({ context: { id: b.wamid, from: '16505550100' }, interactive: { type: 'button_reply', button_reply: { id: 'no', title: 'No' } } });
    expect(inbound[1]).toMatchObject({ context: { id: l.wamid }, interactive: { type: 'list_reply', list_reply: { id: 'r1', title: 'One', description: 'First' } } });
    expect(inbound[2]).toMatchObject({ context: { id: f.wamid }, interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent' } } });
    expect(JSON.parse(inbound[2].interactive.nfm_reply.response_json)).toEqual({ date: '2026-12-01', flow_token: 'conv-9' });
    const names = receiver.values().filter((v: any) => v.messages?.[0]?.from === wa).map((v: any) => v.contacts[0].profile.name);
    expect(new Set(names)).toEqual(new Set(['Katherine Johnson']));
  });

  it('an image and a document arrive as media ids the Graph client can download', async () => {
    const photo = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await sandbox.customers.send(wa, { type: 'image', data: photo, mimeType: 'image/png', caption: 'the damage' });
    await sandbox.customers.send(wa, { type: 'document', fileName: 'invoice.pdf' });
    const [img, doc] = receiver.values().flatMap((v: any) => v.messages ?? []).filter((m: any) => m.from === wa && (m.type === 'image' || m.type === 'document'));
    expect(img.image).toMatchObject({ mime_type: 'image/png', caption: 'the damage', sha256: expect.any(String) });
    expect(doc.document).toMatchObject({ mime_type: 'application/pdf', filename: 'invoice.pdf' });
    const got = await client().downloadMedia(creds, img.image.id);
    expect(got.data.equals(photo)).toBe(true);
    const pdf = await client().downloadMedia(creds, doc.document.id);
    expect(pdf.data.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.sha256).toBe(doc.document.sha256);
  });

  it('a template quick-reply tap carries its payload', async () => {
    const t = await client().sendMessage(creds, '14155550171', messages.template('hello_world', 'en_US'));
    await sandbox.customers.send('14155550171', { type: 'button', payload: 'STOP', text: 'Stop promotions' });
    const m = receiver.values().flatMap((v: any) => v.messages ?? []).find((x: any) => x.from === '14155550171');
    expect(m).toMatchObject({ type: 'button', button: { payload: 'STOP', text: 'Stop promotions' }, context: { id: t.wamid } });
    expect(sandbox.customers.windowOpen('14155550171')).toBe(true);
  });

  it('the HTTP control endpoint and the CLI make a customer talk to a running sandbox', async () => {
    const res = await fetch(`${sandbox.origin}/_sandbox/customers/14155550180/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'text', text: 'via HTTP', name: 'Alan Turing' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: expect.stringMatching(/^wamid\./), webhook: { delivered: true } });

    const root = path.resolve(import.meta.dirname, '../..');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', 'say', '+14155550180', 'via the CLI', '--url', sandbox.origin], {
      cwd: root,
      timeout: 30_000,
    });
    expect(stdout).toMatch(/^sent wamid\.\S+; webhook delivered \(HTTP 200\)/);
    const texts = receiver.values().flatMap((v: any) => v.messages ?? []).filter((m: any) => m.from === '14155550180').map((m: any) => m.text.body);
    expect(texts).toEqual(['via HTTP', 'via the CLI']);
  });
});
