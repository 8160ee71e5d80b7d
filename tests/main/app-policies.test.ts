// The small policies around the desktop app: deep links, window bounds, tray text, CSP, server address,
// and which stream events notify whom.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepLinkFromArgv, deepLinkPath } from '../../src/main/app/deep-link';
import { loadWindowState, saveWindowState, trayTooltip } from '../../src/main/app/window-state';
import { appCspHeader, buildCsp } from '../../src/main/csp';
import { serverAddressStore } from '../../src/main/server-address';
import { decideNotifications } from '../../src/main/notify/decide';
import type { ConversationListEntry, WorkspaceEvent } from '../../src/shared';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-policies-'));
let healthy: http.Server;
let other: http.Server;
const urlOf = (s: http.Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  healthy = http.createServer((req, res) => res.writeHead(req.url === '/healthz' ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', projectId: 'demo-parley' })));
  other = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>router admin</h1>'));
  await Promise.all([healthy, other].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
});
afterAll(async () => {
  await Promise.all([healthy, other].map((s) => new Promise<void>((r) => s.close(() => r()))));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('deep links', () => {
  it('opens a conversation from parley://conversation/{id}', () => {
    expect(deepLinkPath('parley://conversation/3f6c1a2e-0000-4000-8000-000000000001')).toBe('/live-chat/3f6c1a2e-0000-4000-8000-000000000001');
    expect(deepLinkFromArgv(['/opt/Parley/parley', '--no-sandbox', 'parley://conversation/abc'])).toBe('/live-chat/abc');
  });
  it('opens the app for other parley:// links and ignores everything else', () => {
    expect(deepLinkPath('parley://settings')).toBe('/');
    expect(deepLinkPath('parley://conversation/../../etc')).toBe('/');
    expect(deepLinkPath('parley://conversation/a%2F..')).toBe('/');
    expect(deepLinkPath('https://x.com/conversation/1')).toBeNull();
    expect(deepLinkFromArgv(['/opt/Parley/parley', '--inspect'])).toBeNull();
  });
});

describe('window state', () => {
  const displays = [{ x: 0, y: 0, width: 1920, height: 1040 }];
  it('restores size and position that still fit a display', () => {
    const file = path.join(dir, 'window-state.json');
    saveWindowState(file, { x: 100, y: 80, width: 1200, height: 800, maximized: false });
    expect(loadWindowState(file, displays)).toEqual({ x: 100, y: 80, width: 1200, height: 800, maximized: false });
  });
  it('forgets a position on a display that is gone, and a broken file', () => {
    const file = path.join(dir, 'gone.json');
    saveWindowState(file, { x: 2500, y: 100, width: 1200, height: 800, maximized: true });
    expect(loadWindowState(file, displays)).toBeNull();
    fs.writeFileSync(file, '{not json');
    expect(loadWindowState(file, displays)).toBeNull();
  });
  it('tray tooltip counts unread conversations', () => {
    expect(trayTooltip(0)).toBe('Parley');
    expect(trayTooltip(1)).toBe('Parley: 1 unread conversation');
    expect(trayTooltip(7)).toBe('Parley: 7 unread conversations');
  });
});

describe('server address and CSP', () => {
  it('remembers an address that answers /healthz, and builds the CSP from it', async () => {
    const store = serverAddressStore({ userDataDir: path.join(dir, 'a'), projectId: 'demo-parley' });
    expect(store.get()).toBeNull();
    await expect(store.set(`${urlOf(healthy)}/`)).resolves.toBe(urlOf(healthy));
    expect(serverAddressStore({ userDataDir: path.join(dir, 'a'), projectId: 'demo-parley' }).get()).toBe(urlOf(healthy));
    const csp = buildCsp(store.connectSrc());
    expect(csp).toContain(`connect-src 'self' ${urlOf(healthy)}`);
    expect(csp).not.toMatch(/\*/);
  });
  it('puts the CSP header on the app’s own page only, naming the current server', () => {
    const entry = 'app://parley/index.html';
    expect(appCspHeader(`${entry}#/live-chat`, entry, ['https://parley.example.com'])).toBe(buildCsp(['https://parley.example.com']));
    expect(appCspHeader('file:///opt/Parley/resources/app.asar/out/renderer/index.html', entry, ['https://parley.example.com'])).toBeNull();
    expect(appCspHeader('https://parley.example.com/healthz', entry, ['https://parley.example.com'])).toBeNull();
  });
  it('refuses an address without a Parley server, or a malformed one, and keeps the old one', async () => {
    const store = serverAddressStore({ userDataDir: path.join(dir, 'b'), projectId: 'demo-parley', defaultUrl: 'http://127.0.0.1:4000' });
    await expect(store.set(urlOf(other))).rejects.toMatchObject({ statusCode: 503, code: 'not-parley' });
    await expect(store.set('http://127.0.0.1:1')).rejects.toMatchObject({ statusCode: 503, code: 'unreachable' });
    await expect(store.set('javascript:alert(1)')).rejects.toMatchObject({ statusCode: 400 });
    expect(store.get()).toBe('http://127.0.0.1:4000');
  });
});

describe('notification decisions', () => {
  const me = 'member-me';
  const contact = { id: 'k1', createdAt: '2026-11-23T10:00:00.000Z', workspaceId: 'w', name: 'Ada', attributes: {}, channel: 'WhatsApp' as const, phoneNumber: '+1', email: null, tags: [], country: null, city: null, meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null };
  const conv = (id: string, assignee: string | null): ConversationListEntry => ({
    id, createdAt: '2026-11-23T10:00:00.000Z', isActive: true, channel: 'WhatsApp', contactId: 'k1', workspaceId: 'w', whatsappAccountId: null,
    assigneeMemberId: assignee, assigneeBotId: null, lastMessageAt: null, Contact: contact, lastMessage: null,
  });
  const cached = new Map<string, ConversationListEntry>([['mine', conv('mine', me)], ['theirs', conv('theirs', 'other')], ['free', conv('free', null)]]);
  const before = { conversation: (id: string) => cached.get(id) ?? null };
  const all = { newConversation: true, inboundMessage: true, assignedToMe: true };
  const message = (conversationId: string, creator: 'user' | 'agent', seq: number): WorkspaceEvent => ({
    seq, workspaceId: 'w', type: 'message.created', createdAt: '2026-11-23T10:00:00.000Z',
    payload: { message: { id: `m${seq}`, type: 'text', header: null, text: 'hello', mediaUrl: null, footer: null, action: null, templateComponents: null, createdAt: '2026-11-23T10:00:00.000Z', creator, conversationId, memberId: null, status: 'received', failureReason: null } },
  });
  const updated = (id: string, assignee: string | null, seq: number): WorkspaceEvent => {
    const { Contact: _c, lastMessage: _l, ...c } = conv(id, assignee);
    return { seq, workspaceId: 'w', type: 'conversation.updated', createdAt: '2026-11-23T10:00:00.000Z', payload: { conversation: c } };
  };
  const ctx = { memberId: me, settings: all, viewing: { conversationId: null, focused: false } };

  it('inbound messages notify only in my conversations, never for agents\' own messages', () => {
    const notices = decideNotifications([message('mine', 'user', 1), message('theirs', 'user', 2), message('free', 'user', 3), message('mine', 'agent', 4)], before, ctx);
    expect(notices.map((n) => [n.kind, n.conversationId])).toEqual([['inboundMessage', 'mine']]);
    expect(notices[0]).toMatchObject({ title: 'Ada', body: 'hello' });
  });

  it('an assignment notifies when it newly makes the conversation mine', () => {
    expect(decideNotifications([updated('free', me, 1), updated('mine', me, 2), updated('theirs', 'x', 3)], before, ctx).map((n) => n.conversationId)).toEqual(['free']);
  });

  it('a new conversation notifies once, and the viewed conversation in a focused window not at all', () => {
    const opened: WorkspaceEvent = { seq: 1, workspaceId: 'w', type: 'conversation.opened', createdAt: '2026-11-23T10:00:00.000Z', payload: { conversation: conv('new', null) } };
    expect(decideNotifications([opened, message('new', 'user', 2)], before, ctx).map((n) => n.kind)).toEqual(['newConversation']);
    expect(decideNotifications([message('mine', 'user', 3)], before, { ...ctx, viewing: { conversationId: 'mine', focused: true } })).toEqual([]);
    // viewed but the window is in the background: notify
    expect(decideNotifications([message('mine', 'user', 3)], before, { ...ctx, viewing: { conversationId: 'mine', focused: false } })).toHaveLength(1);
  });

  // A note's @mention notifies the mentioned agent, like an assignment (and under its setting).
  it('a mention notifies only the member it names', () => {
    const mention = (memberId: string, seq: number): WorkspaceEvent => {
      const note = (message('free', 'agent', seq) as Extract<WorkspaceEvent, { type: 'message.created' }>).payload.message;
      return {
        seq, workspaceId: 'w', type: 'mention.created', createdAt: '2026-11-23T10:00:00.000Z',
        payload: { mention: { id: `x${seq}`, workspaceId: 'w', conversationId: 'free', message: { ...note, type: 'note', text: '@Me can you check?' }, memberId, mentionedByMemberId: 'other', createdAt: '2026-11-23T10:00:00.000Z', readAt: null, contact: { id: 'k1', name: 'Ada', phoneNumber: '+1' } } },
      };
    };
    const notices = decideNotifications([mention('other', 1), mention(me, 2)], before, ctx);
    expect(notices).toEqual([{ kind: 'assignedToMe', conversationId: 'free', title: 'You were mentioned: Ada', body: '@Me can you check?' }]);
    expect(decideNotifications([mention(me, 3)], before, { ...ctx, settings: { ...all, assignedToMe: false } })).toEqual([]);
  });

  // A bot's HumanHandoff notifies the member it hands the conversation to, by the bot's name, once.
  it("a bot's handoff notifies only the member it names, saying which bot and what it told the customer", () => {
    const handoff = (memberId: string, seq: number): WorkspaceEvent => ({
      seq, workspaceId: 'w', type: 'bot.handoff', createdAt: '2026-11-23T10:00:00.000Z',
      payload: { conversationId: 'free', memberId, memberName: 'Grace Hopper', botId: 'b1', botName: 'Bakery bot', contact: { name: 'Ada', phoneNumber: '+1' }, message: 'Grace will answer you' },
    });
    // As the server appends them: the handoff, then the conversation now assigned to the member.
    const notices = decideNotifications([handoff(me, 1), updated('free', me, 2)], before, ctx);
    expect(notices).toEqual([{ kind: 'assignedToMe', conversationId: 'free', title: 'Bakery bot handed you Ada', body: 'Grace will answer you' }]);
    expect(decideNotifications([handoff('other', 3), updated('free', 'other', 4)], before, ctx)).toEqual([]);
    expect(decideNotifications([handoff(me, 5)], before, { ...ctx, settings: { ...all, assignedToMe: false } })).toEqual([]);
  });

  it('each kind can be turned off', () => {
    expect(decideNotifications([message('mine', 'user', 1)], before, { ...ctx, settings: { ...all, inboundMessage: false } })).toEqual([]);
    expect(decideNotifications([updated('free', me, 1)], before, { ...ctx, settings: { ...all, assignedToMe: false } })).toEqual([]);
  });
});
