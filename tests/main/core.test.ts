// The desktop core as the app and the e2e suite run it: real keychain, real SQLite cache, the real server stack,
// a recording notification adapter. Every call goes through the IPC router.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesktopCore, type DesktopCore } from '../../src/main/core';
import { authUserKey } from '../../src/main/identity/identity';
import { recordingNotifications } from '../support/recording-notifications';
import type { IpcSender } from '../../src/main/ipc/router';
import { emulatorHost } from '../support/server';
import { untilValue } from '../support/until';
import { type DeskStack, startDeskStack } from './stack-support';
import { testKeychain } from './keychain-support';

const PAGE = 'app://parley/index.html';
const sender: IpcSender = { url: `${PAGE}#/live-chat`, isMainFrame: true };
const apiKey = 'demo-parley-core-key';

let stack: DeskStack;
let ta: DeskStack['ta'];
let base: string;
let admin: DeskStack['admin'];
let number: DeskStack['number'];
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-core-'));

beforeAll(async () => {
  stack = await startDeskStack('Desk Shop', '1650557');
  ({ ta, base, admin, number } = stack);
});
afterAll(async () => {
  await stack?.ta.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
});

const customerWrites = (text: string) => stack.customerWrites(text);

describe('desktop core', () => {
  const notifications = recordingNotifications();
  const focus = { focused: false, focusCalls: 0 };
  const events: { event: string; payload: unknown }[] = [];
  let keychain: Awaited<ReturnType<typeof testKeychain>>;
  let core: DesktopCore;

  const start = async () => {
    core = await createDesktopCore({
      userDataDir,
      keychain: keychain.store,
      firebase: { apiKey, projectId: 'demo-parley', authEmulatorHost: emulatorHost() },
      firebaseAppName: 'core-test',
      defaultServerUrl: base,
      notifications,
      window: { isFocused: () => focus.focused, focus: () => void focus.focusCalls++ },
      openExternal: () => undefined,
      app: { version: '0.1.0', platform: 'linux', electron: null },
      isTrustedSender: (s) => s.url.startsWith(PAGE),
      sync: { retryDelayMs: [100, 500], conversationsWithMessages: 10 },
      log: () => undefined,
    });
    core.onEvent((event, payload) => void events.push({ event, payload }));
  };
  const call = async (channel: string, arg?: unknown) => {
    const result = await core.invoke(channel, arg, sender);
    if (!result.ok) throw new Error(`${channel}: ${result.failure.statusCode} ${result.failure.message}`);
    return result.value as never;
  };

  it('signs in over IPC, syncs the workspace, and hands out only short-lived tokens', async () => {
    keychain = await testKeychain();
    await customerWrites('First question');
    await start();
    const profile = await call('identity.signIn', { email: admin.email, password: admin.password });
    expect(profile).toMatchObject({ email: admin.email });
    const status = await call('sync.setWorkspace', { workspaceId: admin.workspaceId });
    expect(status).toMatchObject({ workspaceId: admin.workspaceId });
    await untilValue('live', () => core.syncStatus().state === 'live' && core.workspaceCache()?.lastSyncedAt);
    const tabs = (await call('cache.listConversations', { tab: 'open' })) as { items: { lastMessage: { text: string } }[] };
    expect(tabs.items.map((c) => c.lastMessage.text)).toEqual(['First question']);
    expect(events.some((e) => e.event === 'sync.status' && (e.payload as { state: string }).state === 'live')).toBe(true);
    const token = (await call('identity.getIdToken')) as { token: string };
    expect(token.token.length).toBeGreaterThan(20);
    expect(JSON.stringify(events)).not.toContain('refreshToken');
    // A foreign page gets nothing.
    expect(await core.invoke('identity.getIdToken', undefined, { url: 'https://evil.example/', isMainFrame: true })).toMatchObject({
      ok: false,
      failure: { statusCode: 403 },
    });
  });

  it('notifies a new conversation; a click focuses the window and navigates to it', async () => {
    const { conversation } = await customerWrites('Do you deliver on Saturdays?');
    await untilValue('the notification', () => notifications.shown.find((n) => n.conversationId === conversation.id));
    const notice = notifications.shown.find((n) => n.conversationId === conversation.id)!;
    expect(notice).toMatchObject({ kind: 'newConversation', body: 'Do you deliver on Saturdays?' });
    notifications.click(notifications.shown.indexOf(notice));
    expect(focus.focusCalls).toBe(1);
    expect(events.at(-1)).toEqual({ event: 'navigate', payload: { path: `/live-chat/${conversation.id}` } });
  });

  it('notifies an assignment to me and inbound messages in my conversations, but not in the one on screen', async () => {
    const { waId, conversation } = await customerWrites('Need help with an order');
    await untilValue('cached', () => core.workspaceCache()?.conversation(conversation.id));
    const shown = notifications.shown.length;
    const patched = await ta.call('PATCH', `/conversation/${conversation.id}`, { token: admin.token, body: { assigneeMemberId: admin.member.id } });
    expect(patched.statusCode).toBe(200);
    await untilValue('assigned notice', () => notifications.shown.slice(shown).find((n) => n.kind === 'assignedToMe'));

    await ta.sandbox.customers.say(waId, 'Order 1234, thanks', { phoneNumberId: number.phoneNumberId });
    await ta.app.parley.jobs.drain();
    await untilValue('inbound notice', () => notifications.shown.slice(shown).find((n) => n.kind === 'inboundMessage'));
    expect(notifications.shown.slice(shown).find((n) => n.kind === 'inboundMessage')).toMatchObject({ body: 'Order 1234, thanks', conversationId: conversation.id });

    // Looking at it in a focused window: no notification, and it is not unread.
    await call('view.setCurrentConversation', { conversationId: conversation.id });
    focus.focused = true;
    const seen = notifications.shown.length;
    const before = core.workspaceCache()!.lastSeq;
    await ta.sandbox.customers.say(waId, 'Are you there?', { phoneNumberId: number.phoneNumberId });
    await ta.app.parley.jobs.drain();
    await untilValue('applied', () => core.workspaceCache()!.lastSeq > before);
    expect(notifications.shown.length).toBe(seen);
    expect(core.workspaceCache()!.conversation(conversation.id)?.unread).toBe(false);

    // The same kind turned off in the settings: silence for other conversations too.
    focus.focused = false;
    await call('view.setCurrentConversation', { conversationId: null });
    expect(await call('notifications.setSettings', { newConversation: false })).toEqual({ newConversation: false, inboundMessage: true, assignedToMe: true });
    const quiet = notifications.shown.length;
    const before2 = core.workspaceCache()!.lastSeq;
    await customerWrites('Another new chat');
    await untilValue('applied', () => core.workspaceCache()!.lastSeq > before2);
    expect(notifications.shown.length).toBe(quiet);
  });

  it('keeps drafts and the session across a restart, and resumes syncing on its own', async () => {
    await call('drafts.set', { conversationId: 'c-1', text: 'Half a reply' });
    await call('cache.putMe', {
      me: { id: admin.member.id, uid: admin.member.uid, role: 'admin', createdAt: admin.member.createdAt, currentWorkspaceId: admin.workspaceId, workspaceIds: [admin.workspaceId], Workspaces: [] },
    });
    await core.dispose();
    events.length = 0;

    await start();
    expect(await call('identity.currentUser')).toMatchObject({ email: admin.email });
    expect(await call('drafts.get', { conversationId: 'c-1' })).toEqual({ text: 'Half a reply' });
    expect(await call('notifications.getSettings')).toMatchObject({ newConversation: false });
    expect(core.syncStatus().workspaceId).toBe(admin.workspaceId);
    await untilValue('live again', () => core.syncStatus().state === 'live');
    expect(((await call('cache.conversationCounts')) as { open: number }).open).toBe(4);
  });

  it('sign-out wipes the keychain entry and the user cache', async () => {
    const uid = admin.member.uid;
    expect(fs.existsSync(path.join(userDataDir, 'cache', uid))).toBe(true);
    await call('identity.signOut');
    expect(fs.existsSync(path.join(userDataDir, 'cache', uid))).toBe(false);
    expect(await keychain.store.get(authUserKey(apiKey, 'core-test'))).toBeNull();
    expect(await call('identity.currentUser')).toBeNull();
    expect(core.syncStatus().state).toBe('signedOut');
    expect(await core.invoke('drafts.get', { conversationId: 'c-1' }, sender)).toMatchObject({ ok: false, failure: { statusCode: 401 } });
    await core.dispose();
  });
});
