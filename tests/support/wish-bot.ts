/**
 * The bot the crash tests drive: it greets, asks for a wish and confirms it, so each session waits for its
 * customer between the question and the answer (where a process is killed).
 */
import { expect } from 'vitest';
import type { Session, TestApp } from './server';

/** Creates the wish bot in the admin's workspace, connects it to the WhatsApp account and turns it on. */
export async function seedWishBot(ta: TestApp, admin: Session, whatsappAccountId: string): Promise<string> {
  const attr = await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'wish', format: 'text', workspaceId: admin.workspaceId } });
  const bot = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId } })).json().id as string;
  const pos = { x: 0, y: 0 };
  const rfInstance = {
    nodes: [
      { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
      { id: 'hello', type: 'SendMessageNode', position: pos, data: { label: 'Hello', messageBlocks: [{ id: 'b', type: 'text', text: 'Hello from the bot' }] } },
      { id: 'ask', type: 'CollectInputNode', position: pos, data: { label: 'Ask', body: 'What do you wish for?', variableId: attr.json().id } },
      { id: 'done', type: 'SendMessageNode', position: pos, data: { label: 'Done', messageBlocks: [{ id: 'b', type: 'text', text: 'Wish noted: {{wish}}' }] } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'hello' },
      { id: 'e2', source: 'hello', target: 'ask' },
      { id: 'e3', source: 'ask', target: 'done' },
    ],
  };
  expect((await ta.call('PATCH', `/bot/${bot}`, { token: admin.token, body: { rfInstance } })).statusCode).toBe(200);
  expect((await ta.call('PATCH', `/bot/${bot}/connectWaba`, { token: admin.token, body: { wabaAccountId: whatsappAccountId } })).statusCode).toBe(200);
  expect((await ta.call('PATCH', `/bot/${bot}`, { token: admin.token, body: { isActive: true } })).statusCode).toBe(200);
  return bot;
}
