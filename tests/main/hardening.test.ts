// Desktop hardening  against the real core, keychain, SQLite cache and server stack:
// tokens go to one server only, the cache leaves with its user, start-up cannot be bricked by what was stored.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesktopCore, type DesktopCore, type DesktopCoreOptions } from '../../src/main/core';
import { recordingNotifications } from '../support/recording-notifications';
import type { IpcSender } from '../../src/main/ipc/router';
import type { SecretStore } from '../../src/main/identity/keychain';
import { emulatorHost } from '../support/server';
import { untilValue } from '../support/until';
import { type DeskStack, startDeskStack } from './stack-support';
import { testKeychain } from './keychain-support';

const PAGE = 'app://parley/index.html';
const sender: IpcSender = { url: `${PAGE}#/live-chat`, isMainFrame: true };

let stack: DeskStack;
/** what a hostile server saw: every request, and the bearer tokens among them */
const seen: { url: string; authorization: string | null }[] = [];
let attacker: http.Server;
let attackerProject = 'demo-parley';
const attackerUrl = () => `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-hardening-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  stack = await startDeskStack('Hardening Shop', '1650558');
  attacker = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization ?? null });
    if (req.url === '/healthz') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', projectId: attackerProject }));
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 401, message: 'no', error: 'Unauthorized' }));
  });
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise<void>((r) => attacker.close(() => r()));
  await stack?.ta.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function startCore(userDataDir: string, keychain: SecretStore, extra: Partial<DesktopCoreOptions> = {}): Promise<DesktopCore> {
  return createDesktopCore({
    userDataDir,
    keychain,
    firebase: { apiKey: 'demo-parley-hardening-key', projectId: 'demo-parley', authEmulatorHost: emulatorHost() },
    firebaseAppName: `hardening-${path.basename(userDataDir)}`,
    defaultServerUrl: stack.base,
    notifications: recordingNotifications(),
    openExternal: () => undefined,
    app: { version: '0.1.0', platform: 'linux', electron: null },
    isTrustedSender: (s) => s.url.startsWith(PAGE),
    sync: { retryDelayMs: [50, 200], conversationsWithMessages: 5 },
    log: () => undefined,
    ...extra,
  });
}

const callOn = (core: DesktopCore) => async (channel: string, arg?: unknown) => {
  const result = await core.invoke(channel, arg, sender);
  if (!result.ok) throw Object.assign(new Error(`${channel}: ${result.failure.statusCode} ${result.failure.message}`), result.failure);
  return result.value as never;
};
const tokensSeen = () => seen.filter((s) => s.authorization !== null);

describe('tokens go to one server only', () => {
  it("an attacker's server set as the address receives no token, signed out or signed in, now or after a restart", async () => {
    const { store } = await testKeychain();
    const dir = tempDir();
    let core = await startCore(dir, store);
    const call = callOn(core);

    // Signed out: a server of another Firebase project is refused before anything is saved.
    attackerProject = 'someone-elses-project';
    await expect(call('server.setAddress', { url: attackerUrl() })).rejects.toMatchObject({ statusCode: 409, code: 'other-project' });
    expect(await call('server.getAddress')).toMatchObject({ url: stack.base });

    await call('identity.signIn', { email: stack.admin.email, password: stack.admin.password });
    await call('sync.setWorkspace', { workspaceId: stack.admin.workspaceId });
    await untilValue('live', () => core.syncStatus().state === 'live');

    // Signed in: refused, even when the server claims the right project.
    attackerProject = 'demo-parley';
    await expect(call('server.setAddress', { url: attackerUrl() })).rejects.toMatchObject({ statusCode: 409, code: 'signed-in' });
    await call('sync.retry');
    await new Promise((r) => setTimeout(r, 300));
    await core.dispose();

    // After a restart the session still talks to its own server.
    core = await startCore(dir, store);
    expect(await callOn(core)('server.getAddress')).toMatchObject({ url: stack.base });
    await callOn(core)('sync.setWorkspace', { workspaceId: stack.admin.workspaceId });
    await untilValue('live after restart', () => core.syncStatus().state === 'live');
    await callOn(core)('identity.signOut');
    await core.dispose();

    expect(tokensSeen()).toEqual([]);
  });

  it('takes https only (http for loopback), asks for confirmation, and saves nothing when declined', async () => {
    const { store } = await testKeychain();
    const requested: string[] = [];
    const asked: string[] = [];
    let answer = false;
    const core = await startCore(tempDir(), store, {
      fetch: (input, init) => {
        requested.push(String(input));
        return fetch(input, init);
      },
      confirmServerChange: async (origin) => {
        asked.push(origin);
        return answer;
      },
    });
    const call = callOn(core);
    await expect(call('server.setAddress', { url: 'http://parley.example.com' })).rejects.toMatchObject({ statusCode: 400, code: 'insecure-address' });
    expect(requested).toEqual([]);

    await expect(call('server.setAddress', { url: attackerUrl() })).rejects.toMatchObject({ statusCode: 409, code: 'cancelled' });
    expect(asked).toEqual([attackerUrl()]);
    expect(await call('server.getAddress')).toMatchObject({ url: stack.base });

    answer = true;
    expect(await call('server.setAddress', { url: attackerUrl() })).toMatchObject({ url: attackerUrl(), connectSrc: [attackerUrl()] });
    await core.dispose();
    expect(tokensSeen()).toEqual([]);
  });
});

describe('the cache leaves with its user', () => {
  it('creates owner-only files, and wipes the workspace cache when the server answers 403 for it', async () => {
    const { store } = await testKeychain();
    const dir = tempDir();
    let denied = false;
    // open event streams, so the test can break them off as a server does when a member is removed
    const streams = new Set<AbortController>();
    const core = await startCore(dir, store, {
      fetch: async (input, init) => {
        if (denied && String(input).includes(`/workspace/${stack.admin.workspaceId}`)) {
          return new Response(JSON.stringify({ statusCode: 403, message: 'Not a member', error: 'Forbidden' }), { status: 403, headers: { 'content-type': 'application/json' } });
        }
        if (!String(input).endsWith('/events')) return fetch(input, init);
        const controller = new AbortController();
        init?.signal?.addEventListener('abort', () => controller.abort());
        streams.add(controller);
        return fetch(input, { ...init, signal: controller.signal });
      },
    });
    const call = callOn(core);
    await stack.customerWrites('Private question');
    await call('identity.signIn', { email: stack.admin.email, password: stack.admin.password });
    await call('sync.setWorkspace', { workspaceId: stack.admin.workspaceId });
    await untilValue('live', () => core.syncStatus().state === 'live' && core.workspaceCache()?.lastSyncedAt);
    const userDir = path.join(dir, 'cache', stack.admin.member.uid);
    const workspaceFile = path.join(userDir, `workspace-${stack.admin.workspaceId}.sqlite`);
    for (const file of [path.join(userDir, 'user.sqlite'), workspaceFile, `${workspaceFile}-wal`]) {
      expect((fs.statSync(file).mode & 0o777).toString(8), file).toBe('600');
    }
    expect((fs.statSync(userDir).mode & 0o777).toString(8)).toBe('700');

    denied = true;
    for (const stream of streams) stream.abort();
    await untilValue('wiped', () => !fs.existsSync(workspaceFile) && core.syncStatus().state === 'error');
    expect(fs.existsSync(`${workspaceFile}-wal`)).toBe(false);
    expect(core.syncStatus()).toMatchObject({ state: 'error', message: 'You no longer have access to this workspace' });
    expect(core.workspaceCache()).toBeNull();
    await core.dispose();
  });
});

/** Disables an identity at the Auth emulator (an administrator revoking the agent's access). */
async function disableUser(uid: string): Promise<void> {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/demo-parley/accounts:update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: uid, disableUser: true }),
  });
  if (!res.ok) throw new Error(`could not disable ${uid}: ${res.status}`);
}

describe('the cache leaves with its user (sessions)', () => {
  it('wipes the cache when the session is revoked', async () => {
    const victim = await stack.ta.newMember(stack.admin, 'agent');
    const { store } = await testKeychain();
    const dir = tempDir();
    const core = await startCore(dir, store);
    const call = callOn(core);
    await call('identity.signIn', { email: victim.email, password: victim.password });
    await call('sync.setWorkspace', { workspaceId: victim.workspaceId });
    await untilValue('live', () => core.syncStatus().state === 'live' && core.workspaceCache()?.lastSyncedAt);
    const userDir = path.join(dir, 'cache', victim.member.uid);
    expect(fs.existsSync(userDir)).toBe(true);

    await disableUser(victim.member.uid);
    // the next token refresh finds the account disabled: the SDK ends the session
    await core.invoke('identity.getIdToken', { forceRefresh: true }, sender);
    await untilValue('wiped', () => !fs.existsSync(userDir));
    expect(await call('identity.currentUser')).toBeNull();
    await core.dispose();
  });

  it('wipes the cache on sign-out even when signing out fails, and another user signing in removes the previous one', async () => {
    const { store } = await testKeychain();
    let failDeletes = false;
    const flaky: SecretStore = {
      get: (k) => store.get(k),
      set: (k, v) => store.set(k, v),
      delete: async (k) => {
        if (failDeletes) throw new Error('keychain locked');
        return store.delete(k);
      },
    };
    const dir = tempDir();
    const core = await startCore(dir, flaky);
    const call = callOn(core);
    await call('identity.signIn', { email: stack.admin.email, password: stack.admin.password });
    const adminDir = path.join(dir, 'cache', stack.admin.member.uid);
    await call('drafts.set', { conversationId: 'c-1', text: 'secret draft' });
    expect(fs.existsSync(adminDir)).toBe(true);

    failDeletes = true;
    await expect(call('identity.signOut')).rejects.toThrow();
    expect(fs.existsSync(adminDir)).toBe(false);
    failDeletes = false;

    // A cache left by someone else (an earlier run) goes when another user signs in.
    await call('identity.signIn', { email: stack.admin.email, password: stack.admin.password });
    await call('drafts.set', { conversationId: 'c-1', text: 'secret draft' });
    const other = await stack.ta.newMember(stack.admin, 'agent');
    await call('identity.signIn', { email: other.email, password: other.password });
    expect(fs.existsSync(adminDir)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'cache', other.member.uid))).toBe(true);
    await call('identity.signOut');
    await core.dispose();
  });
});

describe('signing in anew', () => {
  it('stops the running sync first; a failed attempt leaves the previous session as it was', async () => {
    const { store } = await testKeychain();
    const dir = tempDir();
    const core = await startCore(dir, store);
    const call = callOn(core);
    await call('identity.signIn', { email: stack.admin.email, password: stack.admin.password });
    const me = { id: stack.admin.member.id, uid: stack.admin.member.uid, role: 'admin', createdAt: stack.admin.member.createdAt, workspaceIds: [stack.admin.workspaceId], Workspaces: [] };
    await call('cache.putMe', { me: { ...me, currentWorkspaceId: stack.admin.workspaceId } });
    await call('sync.setWorkspace', { workspaceId: stack.admin.workspaceId });
    await untilValue('live', () => core.syncStatus().state === 'live');
    const statuses: string[] = [];
    core.onEvent((event, payload) => {
      if (event === 'sync.status') statuses.push((payload as { state: string }).state);
    });

    await expect(call('identity.signIn', { email: stack.admin.email, password: 'wrong password 1' })).rejects.toMatchObject({ statusCode: 401 });
    // the sync was stopped before the attempt, and the previous session resumed after it failed
    expect(statuses[0]).toBe('signedOut');
    expect(await call('identity.currentUser')).toMatchObject({ email: stack.admin.email });
    await untilValue('live again', () => core.syncStatus().state === 'live');
    expect(await call('drafts.get', { conversationId: 'c-1' })).toEqual({ text: '' });
    await call('identity.signOut');
    await core.dispose();
  });
});

describe('start-up cannot be bricked by what was stored', () => {
  it('refuses a workspace id that cannot name a cache, and starts with one an older version stored', async () => {
    const { store } = await testKeychain();
    const dir = tempDir();
    let core = await startCore(dir, store);
    let call = callOn(core);
    await call('identity.signIn', { email: stack.admin.email, password: stack.admin.password });
    const me = { id: stack.admin.member.id, uid: stack.admin.member.uid, role: 'admin', createdAt: stack.admin.member.createdAt, workspaceIds: [stack.admin.workspaceId], Workspaces: [] };
    await expect(call('cache.putMe', { me: { ...me, currentWorkspaceId: '../../escape' } })).rejects.toMatchObject({ statusCode: 400 });
    await expect(call('sync.setWorkspace', { workspaceId: 'not/an id' })).rejects.toMatchObject({ statusCode: 400 });
    await call('cache.putMe', { me: { ...me, currentWorkspaceId: stack.admin.workspaceId } });
    await core.dispose();

    // what an older version (or a hostile server) left in the user's store
    const file = path.join(dir, 'cache', stack.admin.member.uid, 'user.sqlite');
    const db = new Database(file);
    db.prepare("UPDATE settings SET value = ? WHERE key = 'me'").run(JSON.stringify({ ...me, currentWorkspaceId: 'a.b/c' }));
    db.close();

    core = await startCore(dir, store);
    call = callOn(core);
    expect(await call('identity.currentUser')).toMatchObject({ email: stack.admin.email });
    expect(core.syncStatus().state).toBe('signedOut');
    // and the app works on: the workspace can be opened
    await call('sync.setWorkspace', { workspaceId: stack.admin.workspaceId });
    await untilValue('live', () => core.syncStatus().state === 'live');
    await call('identity.signOut');
    await core.dispose();
  });
});
