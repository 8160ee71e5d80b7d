import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  IdentityRestError,
  authEmulatorHost,
  createVerifiedSession,
  createVerifiedUser,
  idTokenFor,
  listOobCodes,
  sendEmailVerification,
  signIn,
  signUp,
  uniqueEmail,
  verifyEmail,
} from './identity';

const password = `pw-${randomUUID()}`;

describe('auth emulator harness', () => {
  let app: App;

  beforeAll(() => {
    app = initializeApp({ projectId: 'demo-parley' }, `harness-${randomUUID()}`);
  });
  afterAll(async () => {
    await deleteApp(app);
  });

  it('gives workers the emulator host and project id as env vars and through inject', async () => {
    expect(process.env.FIREBASE_AUTH_EMULATOR_HOST).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(process.env.FIREBASE_PROJECT_ID).toBe('demo-parley');
    expect(inject('authEmulatorHost')).toBe(process.env.FIREBASE_AUTH_EMULATOR_HOST);
    expect(inject('firebaseProjectId')).toBe('demo-parley');
    const res = await fetch(`http://${authEmulatorHost()}/`);
    expect(await res.json()).toMatchObject({ authEmulator: { ready: true } });
  });

  it('signs up, signs in, verifies the e-mail through its oob code, and firebase-admin follows', async () => {
    const email = `${randomUUID()}@example.com`;
    const created = await signUp(email, password);
    expect(created.email).toBe(email);
    expect(created.localId).toBeTruthy();

    const session = await signIn(email, password);
    expect(session.localId).toBe(created.localId);
    expect(session.refreshToken).toBeTruthy();

    const before = await getAuth(app).verifyIdToken(session.idToken);
    expect(before.uid).toBe(created.localId);
    expect(before.email).toBe(email);
    expect(before.email_verified).toBe(false);
    expect(before.aud).toBe('demo-parley');

    await sendEmailVerification(session.idToken);
    const codes = (await listOobCodes()).filter((c) => c.email === email);
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ requestType: 'VERIFY_EMAIL' });

    await verifyEmail(email);
    expect((await listOobCodes()).filter((c) => c.email === email)).toHaveLength(0);
    expect((await getAuth(app).getUser(created.localId)).emailVerified).toBe(true);

    const after = await getAuth(app).verifyIdToken(await idTokenFor(email, password));
    expect(after.uid).toBe(created.localId);
    expect(after.email_verified).toBe(true);
  });

  it('verifies an e-mail for which no code was sent yet', async () => {
    const email = uniqueEmail('no-code');
    const session = await createVerifiedSession(email, password);
    const decoded = await getAuth(app).verifyIdToken(session.idToken);
    expect(decoded.email_verified).toBe(true);
    expect(decoded.uid).toBe(session.localId);
  });

  it('createVerifiedUser returns a token firebase-admin accepts with email_verified', async () => {
    const email = uniqueEmail('verified');
    const decoded = await getAuth(app).verifyIdToken(await createVerifiedUser(email, password));
    expect(decoded.email).toBe(email);
    expect(decoded.email_verified).toBe(true);
  });

  it("reports the emulator's error code", async () => {
    const email = uniqueEmail('dup');
    await signUp(email, password);
    const dup = await signUp(email, password).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(IdentityRestError);
    expect((dup as IdentityRestError).code).toBe('EMAIL_EXISTS');
    expect((dup as Error).message).toContain('EMAIL_EXISTS');
    await expect(signIn(email, 'wrong-password')).rejects.toThrow(/INVALID_PASSWORD|INVALID_LOGIN_CREDENTIALS/);
  });

  it('rejects a tampered token', async () => {
    const email = uniqueEmail('tamper');
    const { idToken } = await signUp(email, password);
    const [header, payload] = idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, aud: 'other-project' })).toString('base64url')}.`;
    await expect(getAuth(app).verifyIdToken(forged)).rejects.toThrow();
  });
});
