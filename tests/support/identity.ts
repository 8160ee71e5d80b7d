/**
 * Test helpers for identities in the Firebase Auth emulator started by tests/support/global-setup.ts.
 * Every helper talks to FIREBASE_AUTH_EMULATOR_HOST (falling back to the value the global setup provides).
 *
 * Use a fresh e-mail per test (`uniqueEmail()`): the emulator is shared by all test files (and may be a
 * developer's running emulator), so never rely on it being empty.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { signInWithPassword, type PasswordSession } from '../../scripts/lib/identity-rest';
import * as rest from './identity-rest';

export { IdentityRestError } from '../../scripts/lib/identity-rest';

/** `127.0.0.1:PORT` of the Auth emulator. */
export function authEmulatorHost(): string {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST || inject('authEmulatorHost');
  if (!host) {
    throw new Error(
      'FIREBASE_AUTH_EMULATOR_HOST is not set: add tests/support/global-setup.ts to test.globalSetup in the Vitest config',
    );
  }
  return host;
}

/** `demo-parley`. */
export function firebaseProjectId(): string {
  return process.env.FIREBASE_PROJECT_ID || inject('firebaseProjectId') || rest.DEFAULT_PROJECT_ID;
}

/** A new address on every call, e.g. `agent-1f0c…@example.com`. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID()}@example.com`;
}

export const signUp = (email: string, password: string) => rest.signUpWithPassword(authEmulatorHost(), email, password);
export const signIn = (email: string, password: string) => signInWithPassword(authEmulatorHost(), email, password);
export const sendEmailVerification = (idToken: string) => rest.sendEmailVerification(authEmulatorHost(), idToken);
export const listOobCodes = () => rest.listOobCodes(authEmulatorHost(), firebaseProjectId());
export const verifyEmail = (email: string) => rest.verifyEmail(authEmulatorHost(), email, firebaseProjectId());

/** A fresh ID token for an existing account. */
export async function idTokenFor(email: string, password: string): Promise<string> {
  return (await signIn(email, password)).idToken;
}

/**
 * Signs up, verifies the e-mail through its out-of-band code (as the user would by clicking the link) and signs
 * in again, so the returned session's ID token carries `email_verified: true`.
 */
export async function createVerifiedSession(email: string, password: string): Promise<PasswordSession> {
  await signUp(email, password);
  await verifyEmail(email);
  return signIn(email, password);
}

/** Like createVerifiedSession, returning only the ID token (`email_verified: true`). */
export async function createVerifiedUser(email: string, password: string): Promise<string> {
  return (await createVerifiedSession(email, password)).idToken;
}
