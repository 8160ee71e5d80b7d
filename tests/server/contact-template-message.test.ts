/**
 * Starting a conversation from the audience screen: POST /contact/{id}/template-message sends
 * an approved template to the contact on the template's number, finding or opening the conversation.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';

let ta: TestApp;
let admin: Session;
let agent: Session;
let other: Session;
let accountId: string;
let templateId: string;

async function settle() {
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
}

async function newTemplate(name: string) {
  const res = await ta.call('POST', '/whatsapp-template', {
    token: admin.token,
    body: {
      name, language: 'en_US', category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Ada', 'A100']] } }],
      whatsappAccountId: accountId, workspaceId: admin.workspaceId,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Corner Shop');
  agent = await ta.newMember(admin, 'agent');
  other = await ta.newAdmin('Other Shop');
  const number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  accountId = res.json().id;
  templateId = await newTemplate('order_shipped');
  await settle();
});
afterAll(async () => {
  await ta?.close();
});

const newContact = async (session: Session, phoneNumber: string) => {
  const res = await ta.call('POST', '/contact', { token: session.token, body: { phoneNumber, name: 'Grace Hopper', workspaceId: session.workspaceId } });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
};

describe('POST /contact/{id}/template-message', () => {
  it('opens a conversation with the contact and sends the template to WhatsApp with its variables; a second send uses the same conversation', async () => {
    const contactId = await newContact(admin, '+16505551234');
    const before = ta.sandbox.sent.length;
    const res = await ta.call('POST', `/contact/${contactId}/template-message`, {
      token: agent.token,
      body: { templateId, parameters: { body: ['Grace', 'B22'] } },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ type: 'template', text: 'Hi Grace, your order B22 has shipped.', creator: 'agent', memberId: agent.member.id });
    const sent = ta.sandbox.sent[before];
    expect(sent).toMatchObject({ waId: '16505551234', type: 'template' });
    expect(sent.body).toMatchObject({
      template: { name: 'order_shipped', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Grace' }, { type: 'text', text: 'B22' }] }] },
    });
    const conversations = await ta.db.select().from(t.conversations).where(eq(t.conversations.contactId, contactId));
    expect(conversations).toHaveLength(1);
    expect(conversations[0].whatsappAccountId).toBe(accountId);
    expect(res.json().conversationId).toBe(conversations[0].id);
    // The usual events: the new conversation with its first message, for the other members' inboxes.
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId));
    const opened = events.find((e) => e.type === 'conversation.opened' && (e.payload as { conversation: { id: string } }).conversation.id === conversations[0].id);
    expect(opened?.payload).toMatchObject({ conversation: { lastMessage: { id: res.json().id } } });

    const again = await ta.call('POST', `/contact/${contactId}/template-message`, { token: agent.token, body: { templateId, parameters: { body: ['Grace', 'B23'] } } });
    expect(again.statusCode).toBe(201);
    expect(again.json().conversationId).toBe(conversations[0].id);
  });

  it("is 404 for another workspace's contact or template", async () => {
    const theirs = await newContact(other, '+16505559876');
    const res = await ta.call('POST', `/contact/${theirs}/template-message`, { token: agent.token, body: { templateId, parameters: { body: ['A', 'B'] } } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    const ours = await newContact(admin, '+16505554321');
    const theirTemplate = await ta.call('POST', `/contact/${ours}/template-message`, {
      token: other.token, body: { templateId, parameters: { body: ['A', 'B'] } },
    });
    expect(theirTemplate.statusCode).toBe(404);
  });

  it('is 400 for a template that is not approved, and nothing is sent', async () => {
    const pending = await newTemplate('order_pending');
    await ta.db.update(t.whatsappTemplates).set({ status: 'PENDING' }).where(eq(t.whatsappTemplates.id, pending));
    const contactId = await newContact(admin, '+16505550000');
    const before = ta.sandbox.sent.length;
    const res = await ta.call('POST', `/contact/${contactId}/template-message`, { token: agent.token, body: { templateId: pending, parameters: { body: ['A', 'B'] } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Only approved templates can be sent; this one is PENDING' });
    expect(ta.sandbox.sent.length).toBe(before);
    expect(await ta.db.select().from(t.conversations).where(eq(t.conversations.contactId, contactId))).toHaveLength(0);
  });
});
