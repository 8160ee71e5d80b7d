// The rules of the agent's session in main (the identity part of the mutation score), against the Auth
// emulator with an in-memory stand-in for the keychain, so it runs without an OS keyring and in seconds. The real
// keychain is exercised by identity.test.ts (inside `keyctl session`).
import dns from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authUserKey, createIdentity, identityError, type Identity } from '../../src/main/identity/identity';
import type { SecretStore } from '../../src/main/identity/keychain';
import { IpcError } from '../../src/main/ipc/router';
import { authEmulatorHost, firebaseProjectId, signUp, uniqueEmail } from '../support/identity';

const apiKey = 'demo-parley-rules-key';
const password = 'correct horse battery';
const open: Identity[] = [];

/** A keychain in memory that remembers what was asked of it. */
function memoryStore(initial: Record<string, string> = {}) {
  const entries = new Map(Object.entries(initial));
  const deleted: string[] = [];
  const store: SecretStore = {
    get: async (account) => entries.get(account) ?? null,
    set: async (account, secret) => {
      entries.set(account, secret);
    },
    delete: async (account) => {
      deleted.push(account);
      return entries.delete(account);
    },
  };
  return { store, entries, deleted };
}

let appCount = 0;
async function identityOver(store: SecretStore, appName = `rules-${Date.now()}-${appCount++}`): Promise<Identity> {
  const identity = await createIdentity({
    firebase: { apiKey, projectId: firebaseProjectId(), authEmulatorHost: authEmulatorHost() },
    keychain: store,
    appName,
  });
  open.push(identity);
  return identity;
}

async function signedUp(): Promise<string> {
  const email = uniqueEmail('rules');
  await signUp(email, password);
  return email;
}

afterEach(async () => {
  for (const identity of open.splice(0)) await identity.dispose().catch(() => undefined);
});

const answer = (e: IpcError) => ({ statusCode: e.statusCode, message: e.message, code: e.code, name: e.name });

describe('identityError: Firebase codes in the words and statuses the renderer shows', () => {
  it('maps every known code word for word', () => {
    const expected: Record<string, [number, string, string]> = {
      'auth/invalid-credential': [401, 'Incorrect e-mail or password', 'auth/invalid-credential'],
      'auth/wrong-password': [401, 'Incorrect e-mail or password', 'auth/wrong-password'],
      'auth/user-not-found': [401, 'Incorrect e-mail or password', 'auth/user-not-found'],
      'auth/invalid-email': [401, 'Incorrect e-mail or password', 'auth/invalid-email'],
      'auth/user-disabled': [403, 'This account is disabled', 'auth/user-disabled'],
      'auth/too-many-requests': [429, 'Too many attempts, try again later', 'auth/too-many-requests'],
      'auth/network-request-failed': [503, 'The sign-in service cannot be reached', 'offline'],
      'auth/user-token-expired': [401, 'Your session has ended, sign in again', 'auth/user-token-expired'],
      'auth/requires-recent-login': [401, 'Your session has ended, sign in again', 'auth/requires-recent-login'],
      'auth/invalid-user-token': [401, 'Your session has ended, sign in again', 'auth/invalid-user-token'],
      'auth/operation-not-allowed': [500, 'Identity service error', 'auth/operation-not-allowed'],
    };
    for (const [code, [statusCode, message, answered]] of Object.entries(expected)) {
      const e = identityError(Object.assign(new Error('firebase'), { code }));
      expect(e).toBeInstanceOf(IpcError);
      expect(answer(e), code).toEqual({ statusCode, message, code: answered, name: 'IpcError' });
    }
  });

  it('answers 500 without a code for anything that carries none', () => {
    for (const thrown of [new Error('boom'), 'a string', null, undefined, 42, {}]) {
      expect(answer(identityError(thrown)), String(thrown)).toEqual({ statusCode: 500, message: 'Identity service error', code: null, name: 'IpcError' });
    }
    // a code that is not a string is still named, as text
    expect(identityError({ code: 7 }).code).toBe('7');
  });
});

describe('the session in main', () => {
  it('names the keychain entry after the API key and the app', () => {
    expect(authUserKey('k1', 'parley-desktop')).toBe('firebase:authUser:k1:parley-desktop');
  });

  it('refuses every call that needs a user while signed out: 401 "Not signed in"', async () => {
    const identity = await identityOver(memoryStore().store);
    const signedOut = { statusCode: 401, message: 'Not signed in', code: 'signed-out' };
    await expect(identity.getIdToken()).rejects.toMatchObject(signedOut);
    await expect(identity.sendEmailVerification()).rejects.toMatchObject(signedOut);
    await expect(identity.updateProfile({ displayName: 'Ada' })).rejects.toMatchObject(signedOut);
    expect(await identity.reloadUser()).toBeNull();
    expect(identity.current()).toBeNull();
  });

  it('starts signed out, without failing, when the keychain entry is not readable', async () => {
    const appName = `rules-garbage-${Date.now()}`;
    const { store, entries } = memoryStore({ [authUserKey(apiKey, appName)]: '{not json' });
    const identity = await identityOver(store, appName);
    await identity.ready();
    expect(identity.current()).toBeNull();
    // and signing out wipes the unreadable entry too
    await identity.signOut();
    expect(entries.has(authUserKey(apiKey, appName))).toBe(false);
  });

  it('keeps the session in the keychain as JSON and restores it in a new instance', async () => {
    const email = await signedUp();
    const appName = `rules-restore-${Date.now()}`;
    const { store, entries } = memoryStore();
    const first = await identityOver(store, appName);
    const profile = await first.signIn(email, password);
    const stored = JSON.parse(entries.get(authUserKey(apiKey, appName))!) as { email: string; stsTokenManager: { refreshToken: string } };
    expect(stored.email).toBe(email);
    expect(stored.stsTokenManager.refreshToken).toEqual(expect.any(String));
    await first.dispose();
    open.splice(open.indexOf(first), 1);
    const second = await identityOver(store, appName);
    expect(second.current()).toEqual(profile);
  });

  it('signs out: nothing the session wrote stays in the keychain, and a later sign-out still wipes', async () => {
    const email = await signedUp();
    const appName = `rules-out-${Date.now()}`;
    const { store, entries, deleted } = memoryStore();
    const identity = await identityOver(store, appName);
    const changes: (string | null)[] = [];
    identity.onChange((p) => changes.push(p?.email ?? null));
    await identity.signIn(email, password);
    expect(entries.size).toBeGreaterThan(0);
    await identity.signOut();
    expect([...entries.keys()]).toEqual([]);
    expect(deleted).toContain(authUserKey(apiKey, appName));
    expect(changes.at(-1)).toBeNull();
    expect(identity.current()).toBeNull();
    // signed in again, then out again: wiped again
    await identity.signIn(email, password);
    await identity.signOut();
    expect([...entries.keys()]).toEqual([]);
  });

  it('refuses a wrong password and an unknown address with the renderer\'s words', async () => {
    const email = await signedUp();
    const identity = await identityOver(memoryStore().store);
    await expect(identity.signIn(email, 'wrong password!')).rejects.toMatchObject({ statusCode: 401, message: 'Incorrect e-mail or password' });
    await expect(identity.signIn(uniqueEmail('nobody'), password)).rejects.toMatchObject({ statusCode: 401, message: 'Incorrect e-mail or password' });
    await expect(identity.signIn(email, 'wrong password!')).rejects.toBeInstanceOf(IpcError);
  });

  it('answers a password reset for an unknown address like a known one, but passes on any other refusal', async () => {
    const identity = await identityOver(memoryStore().store);
    await expect(identity.sendPasswordReset(uniqueEmail('nobody'))).resolves.toBeUndefined();
    await expect(identity.sendPasswordReset('')).rejects.toMatchObject({ statusCode: 500, message: 'Identity service error', code: 'auth/missing-email' });
  });

  it('hands out the cached ID token unless asked to refresh, with its expiry as an ISO time', async () => {
    const email = await signedUp();
    const identity = await identityOver(memoryStore().store);
    await identity.signIn(email, password);
    const first = await identity.getIdToken();
    expect(first.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const expires = new Date(first.expiresAt).getTime();
    expect(expires).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(expires).toBeLessThan(Date.now() + 61 * 60_000);
    await new Promise((r) => setTimeout(r, 1100)); // a new token would carry a later issue time
    expect((await identity.getIdToken()).token).toBe(first.token);
    const refreshed = await identity.getIdToken(true);
    expect(refreshed.token).not.toBe(first.token);
  });

  it('changes the display name and photo and tells the listeners', async () => {
    const email = await signedUp();
    const identity = await identityOver(memoryStore().store);
    await identity.signIn(email, password);
    const seen: (string | null)[] = [];
    const stop = identity.onChange((p) => seen.push(p?.displayName ?? null));
    const changed = await identity.updateProfile({ displayName: 'Ada Agent', photoURL: 'https://example.com/ada.png' });
    expect(changed).toMatchObject({ email, displayName: 'Ada Agent', photoURL: 'https://example.com/ada.png' });
    expect(seen.at(-1)).toBe('Ada Agent');
    expect(identity.current()).toMatchObject({ displayName: 'Ada Agent' });
    // undefined leaves a field as it is
    expect(await identity.updateProfile({ displayName: 'Ada B.' })).toMatchObject({ displayName: 'Ada B.', photoURL: 'https://example.com/ada.png' });
    expect(seen.at(-1)).toBe('Ada B.');
    // an unsubscribed listener hears nothing more
    stop();
    const count = seen.length;
    await identity.updateProfile({ displayName: 'Later' });
    expect(seen).toHaveLength(count);
  });

  it('reloadUser answers the current profile and tells the listeners', async () => {
    const email = await signedUp();
    const identity = await identityOver(memoryStore().store);
    await identity.signIn(email, password);
    const seen: (string | null)[] = [];
    identity.onChange((p) => seen.push(p?.email ?? null));
    expect(await identity.reloadUser()).toMatchObject({ email, emailVerified: false });
    expect(seen).toEqual([email]);
  });

  it('a restart finds the agent signed in under the default app name (the installed app passes none)', async () => {
    const email = await signedUp();
    const { store, entries } = memoryStore();
    const settings = { apiKey, projectId: firebaseProjectId(), authEmulatorHost: authEmulatorHost() };
    const first = await createIdentity({ firebase: settings, keychain: store });
    open.push(first);
    const profile = await first.signIn(email, password);
    expect([...entries.keys()]).toEqual([authUserKey(apiKey, 'parley-desktop')]);
    await first.dispose();
    open.splice(open.indexOf(first), 1);
    const second = await createIdentity({ firebase: settings, keychain: store });
    open.push(second);
    expect(second.current()).toEqual(profile);
  });

  it('forgets a session the service has ended (the account deleted elsewhere): signed out, nothing left in the keychain', async () => {
    const email = await signedUp();
    const appName = `rules-deleted-${Date.now()}`;
    const { store, entries } = memoryStore();
    const identity = await identityOver(store, appName);
    const changes: (string | null)[] = [];
    identity.onChange((p) => changes.push(p?.email ?? null));
    await identity.signIn(email, password);
    expect(entries.has(authUserKey(apiKey, appName))).toBe(true);
    // An admin deletes the account (here: the account itself, through the emulator's REST API).
    const { token } = await identity.getIdToken();
    const deleted = await fetch(`http://${authEmulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:delete?key=${apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: token }),
    });
    expect(deleted.ok).toBe(true);
    // The next check with the service ends the session in main, and the keychain no longer holds it, so a restart
    // starts signed out instead of showing a dead account.
    await expect(identity.reloadUser()).rejects.toMatchObject({ statusCode: 401, message: 'Your session has ended, sign in again' });
    expect(identity.current()).toBeNull();
    expect(changes.at(-1)).toBeNull();
    expect([...entries.keys()]).toEqual([]);
  });

  it('without an emulator host, signs in against Google\'s Identity Toolkit (no network here: its lookup fails, answered as offline)', async () => {
    const hosts: string[] = [];
    const lookup = vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: unknown, callback?: (e: Error) => void) => {
      hosts.push(hostname);
      const done = (typeof options === 'function' ? options : callback) as (e: Error) => void;
      process.nextTick(() => done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname })));
    }) as unknown as typeof dns.lookup);
    try {
      const identity = await createIdentity({
        firebase: { apiKey, projectId: firebaseProjectId() },
        keychain: memoryStore().store,
        appName: `rules-production-${Date.now()}`,
      });
      open.push(identity);
      await expect(identity.signIn('someone@example.com', password)).rejects.toMatchObject({ statusCode: 503, code: 'offline' });
      expect(new Set(hosts)).toEqual(new Set(['identitytoolkit.googleapis.com']));
    } finally {
      lookup.mockRestore();
    }
  });

  it('connects to the emulator without printing the emulator warning into the app\'s console', async () => {
    const info = vi.spyOn(console, 'info');
    const warn = vi.spyOn(console, 'warn');
    try {
      await identityOver(memoryStore().store);
      const printed = [...info.mock.calls, ...warn.mock.calls].map((args) => args.map(String).join(' '));
      expect(printed.filter((line) => line.includes('Emulator'))).toEqual([]);
    } finally {
      info.mockRestore();
      warn.mockRestore();
    }
  });

  it('dispose drops the listeners', async () => {
    const email = await signedUp();
    const { store } = memoryStore();
    const identity = await identityOver(store);
    const seen: unknown[] = [];
    identity.onChange((p) => seen.push(p));
    await identity.dispose();
    open.splice(open.indexOf(identity), 1);
    // another instance over the same store signs in; the disposed one hears nothing
    const other = await identityOver(store);
    await other.signIn(email, password);
    expect(seen).toEqual([]);
  });
});
