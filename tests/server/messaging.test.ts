/**
 * Live messaging through the sandbox: replies inside the 24-hour window reach WhatsApp and collect their
 * statuses by webhook; outside it only templates go; WhatsApp's refusals become clear product errors.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { newCustomers } from '../support/customers';
import { multipartBody } from '../support/multipart';

let ta: TestApp;
let admin: Session;
let agent: Session;
let number: SandboxAccount;
let accountId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Corner Shop');
  agent = await ta.newMember(admin, 'agent');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', {
    token: admin.token,
    body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId },
  });
  expect(res.statusCode).toBe(201);
  accountId = res.json().id;
});
afterAll(async () => {
  await ta?.close();
});

/** A new customer writes in; answers the conversation Parley opened for them. */
const customerWrites = newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }), {
  waIdPrefix: '1650555',
  first: 3000,
  text: 'Hi, is the blue jacket in stock?',
  name: (n) => `Customer ${n}`,
});

async function settle() {
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
}

const messageRow = async (id: string) => (await ta.db.select().from(t.messages).where(eq(t.messages.id, id)))[0];
const dayAgo = () => new Date(Date.now() - 25 * 3600 * 1000);

describe('POST /message', () => {
  it('sends the reply to the customer, stores it as the agent’s with its wamid, and follows its statuses', async () => {
    const { waId, conversation } = await customerWrites();
    const before = ta.sandbox.sent.length;
    const res = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Yes, in M and L.', conversationId: conversation.id } });
    expect(res.statusCode).toBe(201);
    const message = res.json();
    expect(message).toMatchObject({ type: 'text', text: 'Yes, in M and L.', creator: 'agent', memberId: agent.member.id, status: 'sent' });

    expect(ta.sandbox.sent).toHaveLength(before + 1);
    const sent = ta.sandbox.sent[before];
    expect(sent).toMatchObject({ waId, type: 'text', phoneNumberId: number.phoneNumberId });
    expect((sent.body as { text: { body: string } }).text.body).toBe('Yes, in M and L.');
    expect((await messageRow(message.id)).waMessageId).toBe(sent.id);

    await settle();
    expect((await messageRow(message.id)).status).toBe('read');

    // The conversation moved up with the reply as its last message.
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/conversations`, { token: agent.token, query: { tab: 'open' } });
    expect(list.json().items[0]).toMatchObject({ id: conversation.id, lastMessage: { id: message.id, creator: 'agent' } });
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId));
    expect(events.filter((e) => e.type === 'message.status').length).toBeGreaterThan(0);
  });

  it('marks the customer’s messages read at WhatsApp when an agent answers', async () => {
    const { waId, conversation } = await customerWrites('First question');
    await ta.sandbox.customers.say(waId, 'And a second one', { phoneNumberId: number.phoneNumberId });
    await ta.app.parley.jobs.drain();
    const fromCustomer = () => ta.sandbox.received.filter((m) => m.waId === waId);
    expect(fromCustomer()).toHaveLength(2);
    expect(fromCustomer().every((m) => m.readAt === undefined)).toBe(true);

    const res = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Answering both', conversationId: conversation.id } });
    expect(res.statusCode).toBe(201);
    await ta.app.parley.jobs.drain();
    expect(fromCustomer().every((m) => m.readAt instanceof Date)).toBe(true);
  });

  it('drops a read receipt WhatsApp refuses for good instead of retrying it', async () => {
    const { conversation } = await customerWrites('Hello');
    // A message id this number never received: the sandbox refuses it as Meta does (invalid parameter).
    await ta.db.update(t.messages).set({ waMessageId: 'wamid.not-received-here' }).where(eq(t.messages.conversationId, conversation.id));
    await ta.app.parley.jobs.send('whatsapp.mark-read', { workspaceId: admin.workspaceId, conversationId: conversation.id });
    await ta.app.parley.jobs.drain({ timeoutMs: 20_000 });
    const [{ n }] = await ta.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job where name = 'whatsapp.mark-read' and state <> 'completed'`,
    ).then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(n).toBe(0);
  });

  it('refuses free text outside the 24-hour window before calling WhatsApp, saying a template is needed', async () => {
    const { conversation } = await customerWrites();
    await ta.db.update(t.conversations).set({ lastInboundAt: dayAgo() }).where(eq(t.conversations.id, conversation.id));
    const before = ta.sandbox.sent.length;
    const res = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Still there?', conversationId: conversation.id } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'More than 24 hours have passed since the customer last wrote; send an approved template to reopen the conversation',
    );
    expect(ta.sandbox.sent).toHaveLength(before);
    const stored = await ta.db.select().from(t.messages).where(eq(t.messages.conversationId, conversation.id));
    expect(stored.filter((m) => m.creator === 'agent')).toHaveLength(0);
  });

  it('turns a refusal by WhatsApp into a clear error and stores nothing', async () => {
    const { conversation } = await customerWrites();
    const count = async () => (await ta.db.select().from(t.messages).where(eq(t.messages.conversationId, conversation.id))).length;
    const before = await count();

    ta.sandbox.injectFailure({ code: 131026 });
    const undeliverable = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Hello', conversationId: conversation.id } });
    expect(undeliverable.statusCode).toBe(409);
    expect(undeliverable.json().message).toContain('could not be delivered');

    ta.sandbox.injectFailure({ code: 131056 });
    const tooFast = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Hello', conversationId: conversation.id } });
    expect(tooFast.statusCode).toBe(429);

    ta.sandbox.injectFailure({ code: 131000, httpStatus: 500, count: 10 });
    const down = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Hello', conversationId: conversation.id } });
    expect(down.statusCode).toBe(502);
    expect(down.json()).toEqual({ statusCode: 502, message: 'WhatsApp could not be reached; try again in a moment', error: 'Bad Gateway' });
    // Drain what is left of the injected failures.
    for (let i = 0; i < 5; i++) {
      const r = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Finally', conversationId: conversation.id } });
      if (r.statusCode === 201) break;
    }
    expect(await count()).toBe(before + 1);
  }, 60_000);

  it('answers 409 when the conversation has no connected number any more', async () => {
    const extra = ta.sandbox.addAccount();
    const connected = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...extra, verifiedName: undefined, workspaceId: admin.workspaceId } });
    await ta.sandbox.customers.say('16505559901', 'hello', { phoneNumberId: extra.phoneNumberId });
    await ta.app.parley.jobs.drain();
    const [conversation] = await ta.db.select().from(t.conversations).where(eq(t.conversations.whatsappAccountId, connected.json().id));
    await ta.call('DELETE', `/whatsapp/${connected.json().id}`, { token: admin.token });
    const res = await ta.call('POST', '/message', { token: agent.token, body: { text: 'Hi', conversationId: conversation.id } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This conversation has no connected WhatsApp number to send from');
  });
});

describe('POST /message/template', () => {
  let templateId: string;

  beforeAll(async () => {
    const res = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: {
        name: 'order_shipped',
        language: 'en_US',
        category: 'UTILITY',
        components: [
          { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Ada', 'A100']] } },
          { type: 'FOOTER', text: 'Corner Shop' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Thanks' }] },
        ],
        whatsappAccountId: accountId,
        workspaceId: admin.workspaceId,
      },
    });
    expect(res.statusCode).toBe(201);
    templateId = res.json().id;
    await settle();
    const [tpl] = await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, templateId));
    expect(tpl.status).toBe('APPROVED');
  });

  it('sends an approved template outside the window and stores it as a template message', async () => {
    const { waId, conversation } = await customerWrites();
    await ta.db.update(t.conversations).set({ lastInboundAt: dayAgo() }).where(eq(t.conversations.id, conversation.id));
    ta.sandbox.advanceTime(25 * 3600 * 1000);
    try {
      const before = ta.sandbox.sent.length;
      const res = await ta.call('POST', '/message/template', {
        token: agent.token,
        body: { conversationId: conversation.id, templateId, parameters: { body: ['Grace', 'B22'] } },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        type: 'template',
        text: 'Hi Grace, your order B22 has shipped.',
        footer: 'Corner Shop',
        creator: 'agent',
        memberId: agent.member.id,
        status: 'sent',
      });
      expect(res.json().templateComponents).toMatchObject({ name: 'order_shipped', language: 'en_US' });
      const sent = ta.sandbox.sent[before];
      expect(sent).toMatchObject({ waId, type: 'template' });
      expect(sent.body).toMatchObject({
        template: { name: 'order_shipped', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Grace' }, { type: 'text', text: 'B22' }] }] },
      });
      await settle();
      expect((await messageRow(res.json().id)).status).toBe('read');
    } finally {
      ta.sandbox.advanceTime(-25 * 3600 * 1000);
    }
  });

  it('fills a media header (our file as a signed link), a text header variable and a URL button variable', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const form = multipartBody({ fileName: 'sale.png', mimeType: 'image/png', content: png });
    const upload = await ta.app.inject({
      method: 'POST',
      url: '/whatsapp-template/upload-media',
      headers: { authorization: `Bearer ${admin.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(upload.statusCode).toBe(201);
    const media = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: {
        name: 'spring_sale',
        language: 'en_US',
        category: 'MARKETING',
        components: [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: [upload.json().FBhandle] } },
          { type: 'BODY', text: 'Hi {{1}}, the spring sale is on.', example: { body_text: [['Ada']] } },
          { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.test/s/{{1}}', example: ['abc'] }] },
        ],
        mediaUrl: upload.json().assetUrl,
        whatsappAccountId: accountId,
        workspaceId: admin.workspaceId,
      },
    });
    const titled = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: {
        name: 'titled_note',
        language: 'en_US',
        category: 'UTILITY',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A1'] } },
          { type: 'BODY', text: 'It is ready for pickup.' },
        ],
        whatsappAccountId: accountId,
        workspaceId: admin.workspaceId,
      },
    });
    expect([media.statusCode, titled.statusCode]).toEqual([201, 201]);
    await settle();
    const { conversation } = await customerWrites();

    const missing = await ta.call('POST', '/message/template', {
      token: agent.token,
      body: { conversationId: conversation.id, templateId: media.json().id, parameters: { body: ['Grace'] } },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('This template needs 1 URL button value, 0 given');

    const before = ta.sandbox.sent.length;
    const sale = await ta.call('POST', '/message/template', {
      token: agent.token,
      body: { conversationId: conversation.id, templateId: media.json().id, parameters: { body: ['Grace'], urlButtons: ['g-42'] } },
    });
    expect(sale.statusCode).toBe(201);
    expect(sale.json()).toMatchObject({ type: 'template', text: 'Hi Grace, the spring sale is on.', header: { type: 'image', link: upload.json().assetUrl } });
    const components = (ta.sandbox.sent[before].body as { template: { components: { type: string; parameters: Record<string, unknown>[] }[] } }).template.components;
    const headerLink = (components[0].parameters[0].image as { link: string }).link;
    expect(headerLink).toMatch(/sig=/);
    // Meta fetches the signed link without a token.
    const fetched = await ta.app.inject({ method: 'GET', url: new URL(headerLink).pathname + new URL(headerLink).search });
    expect(Buffer.from(fetched.rawPayload).equals(png)).toBe(true);
    expect(components.at(-1)).toEqual({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'g-42' }] });

    const note = await ta.call('POST', '/message/template', {
      token: agent.token,
      body: { conversationId: conversation.id, templateId: titled.json().id, parameters: { headerText: 'B7' } },
    });
    expect(note.statusCode).toBe(201);
    expect(note.json().header).toEqual({ type: 'text', text: 'Order B7' });
  });

  it('refuses a wrong number of parameters and a template that is not approved', async () => {
    const { conversation } = await customerWrites();
    const wrong = await ta.call('POST', '/message/template', {
      token: agent.token,
      body: { conversationId: conversation.id, templateId, parameters: { body: ['only one'] } },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('This template needs 2 body parameters, 1 given');

    await ta.db.update(t.whatsappTemplates).set({ status: 'PAUSED' }).where(eq(t.whatsappTemplates.id, templateId));
    const paused = await ta.call('POST', '/message/template', {
      token: agent.token,
      body: { conversationId: conversation.id, templateId, parameters: { body: ['a', 'b'] } },
    });
    expect(paused.statusCode).toBe(409);
    expect(paused.json().message).toBe('Only approved templates can be sent; this one is PAUSED');
    await ta.db.update(t.whatsappTemplates).set({ status: 'APPROVED' }).where(eq(t.whatsappTemplates.id, templateId));
  });
});
