/**
 * Identity for the screens: one interface, two implementations chosen at start (lib/identity): web (the
 * firebase SDK in the page) or desktop (the session in the main process, over IPC). Keeps the auth store
 * current, hands the ID token to the API client and the event stream, and clears every cached query on sign-out.
 */
import type { QueryClient } from '@tanstack/react-query';
import { setIdTokenProvider } from './api-client';
import { getDesktop } from './desktop';
import { setIdTokenSource } from './id-token';
import type { Identity } from './identity/identity';
import { desktopIdentity } from './identity/desktop-identity';
import { webIdentity } from './identity/web-identity';
import { type AuthUser, useAuthStore } from '../stores/auth-store';

let identity: Identity | null = null;

function current(): Identity {
  if (!identity) throw new Error('initAuth() has not run');
  return identity;
}

/** The presence of `window.desktop` (the preload's bridge) picks the desktop implementation. */
export function chooseIdentity(): Identity {
  const desktop = getDesktop();
  return desktop ? desktopIdentity(desktop) : webIdentity();
}

/** Starts listening to the identity service (once). `use` replaces the choice (tests). */
export function initAuth(use?: Identity): void {
  if (identity && !use) return;
  identity = use ?? chooseIdentity();
  const chosen = identity;
  setIdTokenProvider(() => chosen.getIdToken());
  setIdTokenSource(() => chosen.getIdToken());
  chosen.start((user) => useAuthStore.getState().setUser(user));
}

export async function signIn(email: string, password: string): Promise<AuthUser> {
  const user = await current().signIn(email, password);
  useAuthStore.getState().setUser(user);
  return user;
}

/** Sign-out clears user and member state and every cached query (spec section 4). */
export async function signOut(queryClient: QueryClient): Promise<void> {
  await current().signOut();
  useAuthStore.getState().clear();
  queryClient.clear();
}

export function sendVerificationEmail(): Promise<void> {
  return current().sendVerificationEmail();
}

/**
 * Asks the identity service again (e-mail verified in another tab or device?). When the address has just been
 * verified, the ID token is refreshed so the server sees it too.
 */
export async function reloadUser(): Promise<AuthUser | null> {
  const user = await current().reloadUser();
  useAuthStore.getState().setUser(user);
  return user;
}

export function resetPassword(email: string): Promise<void> {
  return current().resetPassword(email);
}

export async function updateProfile(changes: { displayName?: string | null; photoURL?: string | null }): Promise<void> {
  const user = await current().updateProfile(changes);
  if (user) useAuthStore.getState().setUser(user);
}

/** Firebase error codes in words a user understands. */
export function authErrorMessage(err: unknown): string {
  const code = (err as { code?: string })?.code ?? '';
  switch (code) {
    case 'auth/invalid-credential':
    case 'auth/wrong-password':
    case 'auth/user-not-found':
    case 'auth/invalid-login-credentials':
      return 'Incorrect email or password';
    case 'auth/too-many-requests':
      return 'Too many attempts. Try again in a few minutes';
    case 'auth/user-disabled':
      return 'This account has been disabled';
    case 'auth/invalid-email':
      return 'Please enter a valid email address';
    case 'auth/network-request-failed':
      return 'Could not reach the sign-in service';
    default:
      return err instanceof Error ? err.message : 'Something went wrong';
  }
}
