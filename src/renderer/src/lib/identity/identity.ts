/**
 * The renderer's one identity interface. Two implementations: web (the firebase SDK in the page) and desktop
 * (the session lives in the main process; calls go over IPC). `lib/auth.ts` picks one at start; screens only
 * ever see `lib/auth.ts`, never which one runs.
 */
import type { AuthUser } from '../../stores/auth-store';

export interface Identity {
  readonly kind: 'web' | 'desktop';
  /** Starts listening; `onUser` is called once the session is known (null: signed out) and on every change. */
  start(onUser: (user: AuthUser | null) => void): void;
  /** A short-lived ID token of the signed-in user for the Parley server, or null when signed out. */
  getIdToken(): Promise<string | null>;
  signIn(email: string, password: string): Promise<AuthUser>;
  signOut(): Promise<void>;
  sendVerificationEmail(): Promise<void>;
  /** Asks the identity service again (e-mail verified elsewhere?); a newly verified user's token is refreshed. */
  reloadUser(): Promise<AuthUser | null>;
  resetPassword(email: string): Promise<void>;
  updateProfile(changes: { displayName?: string | null; photoURL?: string | null }): Promise<AuthUser | null>;
}
