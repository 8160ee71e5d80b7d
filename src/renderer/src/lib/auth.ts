/**
 * Identity in web mode: the Firebase JS SDK (emulator locally). Keeps the auth store current, hands the ID
 * token to the API client, and clears every cached query on sign-out.
 */
import {
  type User,
  onIdTokenChanged,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut as fbSignOut,
  updateProfile as fbUpdateProfile,
} from 'firebase/auth';
import type { QueryClient } from '@tanstack/react-query';
import { setIdTokenProvider } from './api-client';
import { firebaseAuth } from './firebase';
import { type AuthUser, useAuthStore } from '../stores/auth-store';

export { authSettled } from '../stores/auth-store';

function snapshot(user: User | null): AuthUser | null {
  if (!user) return null;
  return {
    uid: user.uid,
    email: user.email,
    emailVerified: user.emailVerified,
    displayName: user.displayName,
    photoURL: user.photoURL,
  };
}

let started = false;

/** Starts listening to the identity service (once). */
export function initAuth(): void {
  if (started) return;
  started = true;
  const auth = firebaseAuth();
  setIdTokenProvider(async () => (auth.currentUser ? auth.currentUser.getIdToken() : null));
  onIdTokenChanged(auth, (user) => useAuthStore.getState().setUser(snapshot(user)));
}

export async function signIn(email: string, password: string): Promise<AuthUser> {
  const cred = await signInWithEmailAndPassword(firebaseAuth(), email, password);
  const user = snapshot(cred.user)!;
  useAuthStore.getState().setUser(user);
  return user;
}

/** Sign-out clears user and member state and every cached query (spec section 4). */
export async function signOut(queryClient: QueryClient): Promise<void> {
  await fbSignOut(firebaseAuth());
  useAuthStore.getState().clear();
  queryClient.clear();
}

export async function sendVerificationEmail(): Promise<void> {
  const user = firebaseAuth().currentUser;
  if (!user) throw new Error('Sign in first');
  await sendEmailVerification(user);
}

/**
 * Asks the identity service again (e-mail verified in another tab or device?). When the address has just been
 * verified, the ID token is refreshed so the server sees it too.
 */
export async function reloadUser(): Promise<AuthUser | null> {
  const user = firebaseAuth().currentUser;
  if (!user) return null;
  const wasVerified = user.emailVerified;
  await user.reload();
  if (!wasVerified && user.emailVerified) await user.getIdToken(true);
  const s = snapshot(firebaseAuth().currentUser);
  useAuthStore.getState().setUser(s);
  return s;
}

export async function resetPassword(email: string): Promise<void> {
  await sendPasswordResetEmail(firebaseAuth(), email);
}

export async function updateProfile(changes: { displayName?: string | null; photoURL?: string | null }): Promise<void> {
  const user = firebaseAuth().currentUser;
  if (!user) throw new Error('Sign in first');
  await fbUpdateProfile(user, changes);
  useAuthStore.getState().setUser(snapshot(user));
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
