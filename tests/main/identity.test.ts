// The agent's session in main: firebase JS SDK against the Auth emulator, persisted in the real OS keychain.
import { afterEach, describe, expect, it } from 'vitest';
import { authUserKey, createIdentity, type Identity } from '../../src/main/identity/identity';
import type { SecretStore } from '../../src/main/identity/keychain';
import { authEmulatorHost, firebaseProjectId, listOobCodes, signUp, uniqueEmail } from '../support/identity';
import { testKeychain } from './keychain-support';

const apiKey = 'demo-parley-desktop-key';
const password = 'correct horse battery';
const open: Identity[] = [];

async function identityOver(store: SecretStore, appName: string): Promise<Identity> {
  const identity = await createIdentity({
    firebase: { apiKey, projectId: firebaseProjectId(), authEmulatorHost: authEmulatorHost() },
    keychain: store,
    appName,
  });
  open.push(identity);
  return identity;
}

afterEach(async () => {
  for (const identity of open.splice(0)) await identity.dispose().catch(() => undefined);
});

describe('identity in main', () => {
  it('signs in, keeps the session only in the keychain, and is still signed in after a restart', async () => {
    const { store } = await testKeychain();
    const email = uniqueEmail('desk');
    await signUp(email, password);
    const appName = `app-${Date.now()}`;

    const first = await identityOver(store, appName);
    expect(first.current()).toBeNull();
    const changes: unknown[] = [];
    first.onChange((p) => changes.push(p?.email ?? null));
    const profile = await first.signIn(email, password);
    expect(profile).toEqual({ uid: expect.any(String), email, emailVerified: false, displayName: null, photoURL: null });
    expect(changes).toContain(email);

    // The keychain holds the SDK's user record with the refresh token; the renderer's answers never do.
    const stored = await store.get(authUserKey(apiKey, appName));
    expect(stored).toContain('refreshToken');
    const token = await first.getIdToken();
    expect(JSON.stringify({ profile, token })).not.toMatch(/refreshToken/);
    expect(token.token.split('.')).toHaveLength(3);
    expect(new Date(token.expiresAt).getTime()).toBeGreaterThan(Date.now());

    // "Restart": the first instance goes away, a new one reads the same keychain.
    await first.dispose();
    open.splice(open.indexOf(first), 1);
    const second = await identityOver(store, appName);
    expect(second.current()).toMatchObject({ email, uid: profile.uid });
    const refreshed = await second.getIdToken(true);
    expect(refreshed.token).not.toBe('');
    const claims = JSON.parse(Buffer.from(refreshed.token.split('.')[1]!, 'base64url').toString()) as { email: string };
    expect(claims.email).toBe(email);
  });

  it('sign-out wipes the keychain entry and a restart is signed out', async () => {
    const { store } = await testKeychain();
    const email = uniqueEmail('desk');
    await signUp(email, password);
    const appName = `app-${Date.now()}`;
    const identity = await identityOver(store, appName);
    await identity.signIn(email, password);
    expect(await store.get(authUserKey(apiKey, appName))).not.toBeNull();

    await identity.signOut();
    expect(identity.current()).toBeNull();
    expect(await store.get(authUserKey(apiKey, appName))).toBeNull();
    await expect(identity.getIdToken()).rejects.toMatchObject({ statusCode: 401, code: 'signed-out' });

    await identity.dispose();
    open.splice(open.indexOf(identity), 1);
    const again = await identityOver(store, appName);
    expect(again.current()).toBeNull();
  });

  it('refuses a wrong password with 401 and stores nothing', async () => {
    const { store } = await testKeychain();
    const email = uniqueEmail('desk');
    await signUp(email, password);
    const appName = `app-${Date.now()}`;
    const identity = await identityOver(store, appName);
    await expect(identity.signIn(email, 'wrong password!')).rejects.toMatchObject({ statusCode: 401, message: 'Incorrect e-mail or password' });
    expect(await store.get(authUserKey(apiKey, appName))).toBeNull();
  });

  it('sends the e-mail verification and a password reset, and reloadUser sees the verified address', async () => {
    const { store } = await testKeychain();
    const email = uniqueEmail('desk');
    await signUp(email, password);
    const identity = await identityOver(store, `app-${Date.now()}`);
    await identity.signIn(email, password);

    await identity.sendEmailVerification();
    const verify = (await listOobCodes()).filter((c) => c.email === email && c.requestType === 'VERIFY_EMAIL').at(-1);
    expect(verify).toBeDefined();
    const host = authEmulatorHost();
    const applied = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:update?key=${apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ oobCode: verify!.oobCode }),
    });
    expect(applied.ok).toBe(true);
    const changes: boolean[] = [];
    identity.onChange((p) => changes.push(p?.emailVerified ?? false));
    expect(await identity.reloadUser()).toMatchObject({ email, emailVerified: true });
    expect(changes).toContain(true);

    await identity.sendPasswordReset(email);
    expect((await listOobCodes()).some((c) => c.email === email && c.requestType === 'PASSWORD_RESET')).toBe(true);
    // An unknown address gets the same answer (no account enumeration).
    await expect(identity.sendPasswordReset(uniqueEmail('nobody'))).resolves.toBeUndefined();
  });
});
