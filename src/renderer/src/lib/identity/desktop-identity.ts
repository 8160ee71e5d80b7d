/**
 * Identity in the desktop app: the firebase session lives in the main process (refresh token in the OS
 * keychain); the renderer asks for short-lived ID tokens over IPC and keeps each until shortly before it expires.
 */
import type { DesktopApi, DesktopProfile } from '@shared/ipc';
import { unwrapIpcResult } from '@shared/ipc';
import type { AuthUser } from '../../stores/auth-store';
import type { Identity } from './identity';

/** A token this close to its expiry is not handed out any more (a request may take a while). */
const TOKEN_MARGIN_MS = 60_000;

export function desktopIdentity(desktop: DesktopApi, now: () => number = Date.now): Identity {
  let token: { value: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;
  const forget = () => {
    token = null;
    pending = null;
  };
  const profile = (p: DesktopProfile | null): AuthUser | null => (p ? { ...p } : null);

  return {
    kind: 'desktop',
    start(onUser) {
      desktop.on('identity.changed', (p) => {
        forget();
        onUser(profile(p));
      });
      void desktop.identity.currentUser().then(
        (r) => onUser(r.ok ? profile(r.value) : null),
        () => onUser(null),
      );
    },
    async getIdToken() {
      if (token && token.expiresAt - now() > TOKEN_MARGIN_MS) return token.value;
      // One IPC round trip for all the requests that start together.
      pending ??= desktop.identity.getIdToken().then((r) => {
        const answer = unwrapIpcResult(r);
        token = { value: answer.token, expiresAt: Date.parse(answer.expiresAt) };
        return answer.token;
      });
      try {
        return await pending;
      } catch (err) {
        // Signed out (401) means no token, as in web mode; anything else is the caller's to see.
        if ((err as { statusCode?: number }).statusCode === 401) return null;
        throw err;
      } finally {
        pending = null;
      }
    },
    async signIn(email, password) {
      forget();
      return profile(unwrapIpcResult(await desktop.identity.signIn({ email, password })))!;
    },
    async signOut() {
      forget();
      unwrapIpcResult(await desktop.identity.signOut());
    },
    async sendVerificationEmail() {
      unwrapIpcResult(await desktop.identity.sendEmailVerification());
    },
    async reloadUser() {
      // main refreshes the token when the address has just been verified; ours may say otherwise.
      forget();
      return profile(unwrapIpcResult(await desktop.identity.reloadUser()));
    },
    async resetPassword(email) {
      unwrapIpcResult(await desktop.identity.sendPasswordReset({ email }));
    },
    async updateProfile(changes) {
      return profile(unwrapIpcResult(await desktop.identity.updateProfile(changes)));
    },
  };
}
