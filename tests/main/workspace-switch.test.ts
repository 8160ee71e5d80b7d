// A user in two workspaces switches in the desktop app without signing out: the desktop core as the app runs it
// (real keychain, real SQLite, the real server stack), every call through the IPC router. The second workspace
// syncs into its own file, offline browsing and search read only the current one, notifications and the badge
// follow it, and switching back resumes from the last sequence (no REST list is read again).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesktopCore, type DesktopCore } from '../../src/main/core';
import type { IpcSender } from '../../src/main/ipc/router';
import type { AuthMe } from '../../src/shared';
import { newCustomers } from '../support/customers';
import { recordingNotifications } from '../support/recording-notifications';
import { emulatorHost } from '../support/server';
import { until, untilValue } from '../support/until';
import { testKeychain } from './keychain-support';
import { type DeskStack, startDeskStack } from './stack-support';

const PAGE = 'app://parley/index.html';
const sender: IpcSender = { url: `${PAGE}#/live-chat`, isMainFrame: true };

let stack: DeskStack;
let second: string;
let secondWrites: ReturnType<typeof newCustomers>;
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-switch-'));

beforeAll(async () => {
  stack = await startDeskStack('First Shop', '1650561');
  const { ta, admin } = stack;
  // The admin's second workspace, with a sandbox number of its own (creating it makes it the current one).
  const created = await ta.call('POST', '/workspace', { token: admin.token, body: { name: 'Second Shop' } });
  if (created.statusCode !== 201) throw new Error(`creating the second workspace failed: ${created.statusCode} ${created.body}`);
  second = created.json().id;
  const number = ta.sandbox.addAccount();
  const connected = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: second } });
  if (connected.statusCode !== 201) throw new Error(`connecting the second number failed: ${connected.statusCode} ${connected.body}`);
  secondWrites = newCustomers(() => ({ ta, workspaceId: second, phoneNumberId: number.phoneNumberId }), { waIdPrefix: '1650562' });
});
afterAll(async () => {
  await stack?.ta.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
});

/** fetch that records the paths main asks for. */
function recordingFetch() {
  const paths: string[] = [];
  const recorded = (async (input: URL | RequestInfo, init?: RequestInit) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  }) as typeof fetch;
  return { paths, fetch: recorded };
}

describe('switching workspaces in the desktop app', () => {
  const notifications = recordingNotifications();
  const requests = recordingFetch();
  const badges: number[] = [];
  let core: DesktopCore;
  let first: string;
  let firstSyncedAt: string | null;

  const call = async <T = never>(channel: string, arg?: unknown): Promise<T> => {
    const result = await core.invoke(channel, arg, sender);
    if (!result.ok) throw new Error(`${channel}: ${result.failure.statusCode} ${result.failure.message}`);
    return result.value as T;
  };
  const names = async () => (await call<{ items: { Contact: { name: string } }[] }>('cache.listConversations', { tab: 'open' })).items.map((c) => c.Contact.name).sort();
  /** What the renderer does on a switch: PATCH /auth/me, keep the answer, tell main the workspace. */
  const switchTo = async (workspaceId: string) => {
    const res = await stack.ta.call('PATCH', '/auth/me', { token: stack.admin.token, body: { currentWorkspaceId: workspaceId } });
    expect(res.statusCode).toBe(200);
    await call('cache.putMe', { me: res.json() as AuthMe });
    return call<{ workspaceId: string }>('sync.setWorkspace', { workspaceId });
  };
  const live = (workspaceId: string) =>
    untilValue(`${workspaceId} live`, () => core.syncStatus().workspaceId === workspaceId && core.syncStatus().state === 'live' && core.workspaceCache()?.lastSyncedAt);

  it('syncs the first workspace into its own file', async () => {
    first = stack.admin.workspaceId;
    await stack.customerWrites('Alpha question about a parcel', 'Alma First');
    const keychain = await testKeychain();
    core = await createDesktopCore({
      userDataDir,
      keychain: keychain.store,
      firebase: { apiKey: 'demo-parley-switch-key', projectId: 'demo-parley', authEmulatorHost: emulatorHost() },
      firebaseAppName: 'switch-test',
      defaultServerUrl: stack.base,
      notifications,
      window: { isFocused: () => false, focus: () => undefined },
      openExternal: () => undefined,
      setBadge: (count) => void badges.push(count),
      fetch: requests.fetch,
      app: { version: '0.1.0', platform: 'linux', electron: null },
      isTrustedSender: (s) => s.url.startsWith(PAGE),
      sync: { retryDelayMs: [100, 500], conversationsWithMessages: 10 },
      log: () => undefined,
    });
    await call('identity.signIn', { email: stack.admin.email, password: stack.admin.password });
    await switchTo(first);
    await live(first);
    expect(await names()).toEqual(['Alma First']);
    // A workspace quiet since its full sync still knows where to resume: the stream's first message says where it
    // started, so leaving now and coming back would not need a full sync.
    const seqAfterSync = core.workspaceCache()!.lastSeq;
    expect(seqAfterSync).toBeGreaterThan(0);
    await stack.customerWrites('Alpha follow-up', 'Abe First');
    await until(async () => core.workspaceCache()!.lastSeq > seqAfterSync && (await names()).includes('Abe First'), 15_000);
    await untilValue('badge 2', () => badges.at(-1) === 2);
    firstSyncedAt = core.workspaceCache()!.lastSyncedAt;
  });

  it('switches without signing out: the second workspace syncs into its own file and is all the cache shows', async () => {
    await secondWrites('Beta question about a refund', 'Bea Second');
    await secondWrites('Another beta question', 'Ben Second');
    const status = await switchTo(second);
    expect(status).toMatchObject({ workspaceId: second });
    await live(second);
    const dir = path.join(userDataDir, 'cache', stack.admin.member.uid);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.sqlite')).sort()).toEqual([`workspace-${first}.sqlite`, `workspace-${second}.sqlite`, 'user.sqlite'].sort());
    expect(await call('identity.currentUser')).toMatchObject({ email: stack.admin.email });

    // Offline browsing and search read the current workspace only.
    expect(await names()).toEqual(['Bea Second', 'Ben Second']);
    expect(await call('cache.conversationCounts')).toMatchObject({ open: 2 });
    expect(await call('cache.searchMessages', { search: 'alpha' })).toEqual({ items: [] });
    expect((await call<{ items: { text: string }[] }>('cache.searchMessages', { search: 'refund' })).items.map((m) => m.text)).toEqual(['Beta question about a refund']);
    expect((await call<{ items: unknown[] }>('cache.searchContacts', { search: 'alma' })).items).toEqual([]);
    expect((await call<{ items: { name: string }[] }>('cache.searchContacts', { search: 'bea' })).items.map((c) => c.name)).toEqual(['Bea Second']);
    expect(await call('cache.listConversations', { tab: 'open', search: 'alma' })).toMatchObject({ items: [] });
    // The stored member record names the workspace followed (a restart, even offline, reopens it).
    expect(await call('cache.getMe')).toMatchObject({ currentWorkspaceId: second });
    // The badge counts the second workspace's unread chats.
    expect(badges.at(-1)).toBe(2);
  });

  it('notifications and the badge follow the current workspace only', async () => {
    const before = core.workspaceCache()!.lastSeq;
    const shown = notifications.shown.length;
    // The workspace left behind: no sync runs for it, so nothing about it is shown.
    const away = await stack.customerWrites('Written in the first shop meanwhile', 'Fred First');
    const here = await secondWrites('Hello from the second shop', 'Sue Second');
    await untilValue('the new conversation notice', () => notifications.shown.slice(shown).find((n) => n.conversationId === here.conversation.id));
    await untilValue('applied', () => core.workspaceCache()!.lastSeq > before && core.workspaceCache()!.conversation(here.conversation.id));
    expect(notifications.shown.slice(shown).map((n) => n.conversationId)).toEqual([here.conversation.id]);
    expect(core.workspaceCache()!.conversation(away.conversation.id)).toBeNull();
    await untilValue('badge 3', () => badges.at(-1) === 3);
  });

  it('switching back resumes from the last sequence: no full sync, and what happened meanwhile is there', async () => {
    const secondSeq = core.workspaceCache()!.lastSeq;
    requests.paths.length = 0;
    await switchTo(first);
    await until(async () => (await names()).includes('Fred First'), 15_000);
    await live(first);
    expect(await names()).toEqual(['Abe First', 'Alma First', 'Fred First']);
    // incremental: the event stream from the last sequence, no REST list read, the full sync's time kept
    expect(core.workspaceCache()!.lastSyncedAt).toBe(firstSyncedAt);
    expect(requests.paths.filter((p) => /\/workspace\/[^/]+\/(contacts|conversations|members|attributes)$/.test(p))).toEqual([]);
    expect(requests.paths).toContain(`/workspace/${first}/events`);
    expect(badges.at(-1)).toBe(3);
    expect((await call<{ items: unknown[] }>('cache.searchContacts', { search: 'sue' })).items).toEqual([]);

    // and back to the second one again: its own file, also resumed where it stopped
    requests.paths.length = 0;
    await switchTo(second);
    await live(second);
    expect(core.workspaceCache()!.lastSeq).toBeGreaterThanOrEqual(secondSeq);
    expect(await names()).toEqual(['Bea Second', 'Ben Second', 'Sue Second']);
    expect(requests.paths.filter((p) => /\/(contacts|conversations)$/.test(p))).toEqual([]);
    expect(badges.at(-1)).toBe(3);
  });

  it('quick switches there and back end in the last one asked for, with one cache open', async () => {
    const asked = [first, second, first].map((id) => call<{ workspaceId: string }>('sync.setWorkspace', { workspaceId: id }));
    expect((await Promise.all(asked)).map((s) => s.workspaceId)).toEqual([first, second, first]);
    await live(first);
    expect(await names()).toEqual(['Abe First', 'Alma First', 'Fred First']);
    await core.dispose();
  });
});
