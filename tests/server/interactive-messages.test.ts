/**
 * Reply buttons and list menus from the composer, sent through the one outbound path as the
 * member, within WhatsApp's limits (the shared schema refuses the rest before Meta is called), inside the 24-hour
 * window only; what the Graph API received is checked in the sandbox, and the conversation stores it to show.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { newCustomers } from '../support/customers';

let ta: TestApp;
let admin: Session;
let agent: Session;
let outsider: Session;
let number: SandboxAccount;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Harbour Menus');
  agent = await ta.newMember(admin, 'agent');
  outsider = await ta.newAdmin('Other Menus');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => {
  await ta?.close();
});

const customerWrites = newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }), { waIdPrefix: '1650888', name: (n) => `Lin ${n}` });
const send = (token: string, body: unknown) => ta.call('POST', '/message/interactive', { token, body });

describe('reply buttons and list menus from the composer', () => {
  it('sends reply buttons as the member: the Graph API gets an interactive button message, the timeline stores it', async () => {
    const { waId, conversation } = await customerWrites('Can I change my delivery?');
    const before = ta.sandbox.sent.length;
    const res = await send(agent.token, {
      conversationId: conversation.id,
      type: 'buttons',
      header: 'Delivery',
      body: 'When should we come?',
      footer: 'Harbour Foods',
      buttons: [{ title: 'Morning' }, { title: 'Afternoon' }, { title: 'Evening' }],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ text: 'When should we come?', footer: 'Harbour Foods', creator: 'agent', memberId: agent.member.id, status: 'sent' });
    const sent = ta.sandbox.sent[before];
    expect(sent).toMatchObject({ waId, type: 'interactive' });
    expect((sent.body as { interactive: unknown }).interactive).toEqual({
      type: 'button',
      header: { type: 'text', text: 'Delivery' },
      body: { text: 'When should we come?' },
      footer: { text: 'Harbour Foods' },
      action: {
        buttons: [
          { type: 'reply', reply: { id: 'button-1', title: 'Morning' } },
          { type: 'reply', reply: { id: 'button-2', title: 'Afternoon' } },
          { type: 'reply', reply: { id: 'button-3', title: 'Evening' } },
        ],
      },
    });
    // The conversation shows it with its buttons.
    const detail = (await ta.call('GET', `/conversation/${conversation.id}`, { token: admin.token })).json();
    const stored = detail.Message.find((m: { id: string }) => m.id === res.json().id);
    expect(JSON.stringify(stored.action)).toContain('Afternoon');
  });

  it('sends a list menu with sections and row descriptions, ids by position', async () => {
    const { waId, conversation } = await customerWrites('What can I order?');
    const before = ta.sandbox.sent.length;
    const res = await send(agent.token, {
      conversationId: conversation.id,
      type: 'list',
      body: 'Pick a dish',
      button: 'See the menu',
      sections: [
        { title: 'Mains', rows: [{ title: 'Fish pie', description: 'With peas' }, { title: 'Risotto' }] },
        { title: 'Desserts', rows: [{ title: 'Lemon tart' }] },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type: 'list', text: 'Pick a dish' });
    const sent = ta.sandbox.sent[before];
    expect(sent).toMatchObject({ waId, type: 'interactive' });
    expect((sent.body as { interactive: { type: string; action: unknown } }).interactive).toMatchObject({
      type: 'list',
      body: { text: 'Pick a dish' },
      action: {
        button: 'See the menu',
        sections: [
          { title: 'Mains', rows: [{ id: 'row-1', title: 'Fish pie', description: 'With peas' }, { id: 'row-2', title: 'Risotto' }] },
          { title: 'Desserts', rows: [{ id: 'row-3', title: 'Lemon tart' }] },
        ],
      },
    });
  });

  it("refuses what WhatsApp would refuse, before anything reaches Meta (400 in the spec's error shape)", async () => {
    const { conversation } = await customerWrites('Options please');
    const before = ta.sandbox.sent.length;
    const row = (i: number) => ({ title: `Row ${i}` });
    const bad = [
      { type: 'buttons', body: 'Pick', buttons: [{ title: 'A' }, { title: 'B' }, { title: 'C' }, { title: 'D' }] },
      { type: 'buttons', body: 'Pick', buttons: [{ title: 'A title longer than 20' }] },
      { type: 'buttons', body: 'Pick', buttons: [{ title: 'Same' }, { title: 'same' }] },
      { type: 'buttons', body: 'x'.repeat(1025), buttons: [{ title: 'A' }] },
      { type: 'list', body: 'Pick', button: 'A menu button text >20', sections: [{ rows: [row(1)] }] },
      { type: 'list', body: 'Pick', button: 'Menu', sections: [{ title: 'A', rows: Array.from({ length: 6 }, (_, i) => row(i)) }, { title: 'B', rows: Array.from({ length: 5 }, (_, i) => row(i + 6)) }] },
      { type: 'list', body: 'Pick', button: 'Menu', sections: [{ rows: [{ title: 'x'.repeat(25) }] }] },
      { type: 'list', body: 'Pick', button: 'Menu', sections: [{ rows: [{ title: 'Ok', description: 'x'.repeat(73) }] }] },
      { type: 'list', body: 'Pick', button: 'Menu', sections: [{ title: 'x'.repeat(25), rows: [row(1)] }] },
    ];
    for (const body of bad) {
      const res = await send(agent.token, { conversationId: conversation.id, ...body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect(ta.sandbox.sent).toHaveLength(before);
  });

  it('refuses outside the 24-hour window (409) and in another workspace (404), sending nothing', async () => {
    const { conversation } = await customerWrites('Hello');
    await ta.db.update(t.conversations).set({ lastInboundAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(t.conversations.id, conversation.id));
    const before = ta.sandbox.sent.length;
    const late = await send(agent.token, { conversationId: conversation.id, type: 'buttons', body: 'Still there?', buttons: [{ title: 'Yes' }] });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/More than 24 hours have passed/);
    const foreign = await send(outsider.token, { conversationId: conversation.id, type: 'buttons', body: 'Hi', buttons: [{ title: 'Yes' }] });
    expect(foreign.statusCode).toBe(404);
    expect(ta.sandbox.sent).toHaveLength(before);
  });
});
