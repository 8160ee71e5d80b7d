// The agent's Firebase session, owned by the main process. The firebase JS SDK (pinned: the persistence
// interface below is the SDK's internal one) keeps its state through a persistence class whose _set/_get/
// _remove go to the OS keychain, so nothing about the session is written to disk in plain text and a restart
// finds the agent signed in. The renderer only receives the profile and short-lived ID tokens.
import { type FirebaseApp, deleteApp, initializeApp } from 'firebase/app';
import {
  type Auth,
  type Persistence,
  type User,
  connectAuthEmulator,
  initializeAuth,
  onAuthStateChanged,
  reload,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  updateProfile,
} from 'firebase/auth';
import { type DesktopProfile, toProfile } from '../../shared/ipc';
import { IpcError } from '../ipc/router';
import type { SecretStore } from './keychain';

export interface FirebaseSettings {
  apiKey: string;
  projectId: string;
  authDomain?: string;
  /** host:port of the Auth emulator (development and tests) */
  authEmulatorHost?: string;
}

export interface IdentityOptions {
  firebase: FirebaseSettings;
  keychain: SecretStore;
  /** Firebase app name; the keychain entry is named after it (one per app install) */
  appName?: string;
}

export interface Identity {
  /** resolves once the session stored in the keychain (if any) is restored */
  ready(): Promise<void>;
  current(): DesktopProfile | null;
  signIn(email: string, password: string): Promise<DesktopProfile>;
  signOut(): Promise<void>;
  getIdToken(forceRefresh?: boolean): Promise<{ token: string; expiresAt: string }>;
  sendEmailVerification(): Promise<void>;
  reloadUser(): Promise<DesktopProfile | null>;
  sendPasswordReset(email: string): Promise<void>;
  /** display name and photo; null clears one, undefined leaves it */
  updateProfile(changes: { displayName?: string | null; photoURL?: string | null }): Promise<DesktopProfile>;
  /** called with the profile on every sign-in, sign-out and restore; returns the unsubscribe function */
  onChange(listener: (profile: DesktopProfile | null) => void): () => void;
  /** releases the Firebase app (the keychain entry stays: that is the point) */
  dispose(): Promise<void>;
}

type PersistedValue = Record<string, unknown> | string;

/**
 * A persistence class bound to one keychain (the SDK instantiates it itself, and caches instances per class,
 * so each identity gets its own class). `type = 'LOCAL'`: the session survives restarts.
 */
function keychainPersistence(keychain: SecretStore, written: Set<string>) {
  return class KeychainPersistence {
    static type = 'LOCAL' as const;
    readonly type = 'LOCAL' as const;
    async _isAvailable(): Promise<boolean> {
      return true;
    }
    async _set(key: string, value: PersistedValue): Promise<void> {
      written.add(key);
      await keychain.set(key, JSON.stringify(value));
    }
    async _get(key: string): Promise<PersistedValue | null> {
      const stored = await keychain.get(key);
      if (stored === null) return null;
      try {
        return JSON.parse(stored) as PersistedValue;
      } catch {
        return null;
      }
    }
    async _remove(key: string): Promise<void> {
      written.delete(key);
      await keychain.delete(key);
    }
    // The keychain has no change notifications (one main process owns it).
    _addListener(): void {}
    _removeListener(): void {}
  };
}

/** Firebase error codes in the words and statuses the renderer shows. */
export function identityError(error: unknown): IpcError {
  const code = typeof error === 'object' && error && 'code' in error ? String((error as { code: unknown }).code) : null;
  switch (code) {
    case 'auth/invalid-credential':
    case 'auth/wrong-password':
    case 'auth/user-not-found':
    case 'auth/invalid-email':
      return new IpcError(401, 'Incorrect e-mail or password', code);
    case 'auth/user-disabled':
      return new IpcError(403, 'This account is disabled', code);
    case 'auth/too-many-requests':
      return new IpcError(429, 'Too many attempts, try again later', code);
    case 'auth/network-request-failed':
      return new IpcError(503, 'The sign-in service cannot be reached', 'offline');
    case 'auth/user-token-expired':
    case 'auth/requires-recent-login':
    case 'auth/invalid-user-token':
      return new IpcError(401, 'Your session has ended, sign in again', code);
    default:
      return new IpcError(500, 'Identity service error', code);
  }
}

export function authUserKey(apiKey: string, appName: string): string {
  return `firebase:authUser:${apiKey}:${appName}`;
}

export async function createIdentity({ firebase, keychain, appName = 'parley-desktop' }: IdentityOptions): Promise<Identity> {
  const app: FirebaseApp = initializeApp(
    { apiKey: firebase.apiKey, projectId: firebase.projectId, authDomain: firebase.authDomain ?? `${firebase.projectId}.firebaseapp.com` },
    appName,
  );
  const written = new Set<string>();
  const auth: Auth = initializeAuth(app, { persistence: keychainPersistence(keychain, written) as unknown as Persistence });
  if (firebase.authEmulatorHost) connectAuthEmulator(auth, `http://${firebase.authEmulatorHost}`, { disableWarnings: true });

  const listeners = new Set<(profile: DesktopProfile | null) => void>();
  const emit = () => {
    const profile = toProfile(auth.currentUser);
    for (const listener of listeners) listener(profile);
  };
  await auth.authStateReady();
  const unsubscribe = onAuthStateChanged(auth, () => emit());

  const requireUser = (): User => {
    if (!auth.currentUser) throw new IpcError(401, 'Not signed in', 'signed-out');
    return auth.currentUser;
  };
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw error instanceof IpcError ? error : identityError(error);
    }
  };

  return {
    ready: () => auth.authStateReady(),
    current: () => toProfile(auth.currentUser),
    signIn: (email, password) =>
      run(async () => {
        const { user } = await signInWithEmailAndPassword(auth, email, password);
        return toProfile(user)!;
      }),
    async signOut() {
      await run(() => signOut(auth));
      // The SDK removes its entry; also remove anything else it wrote, whatever happened above.
      for (const key of [authUserKey(firebase.apiKey, appName), ...written]) await keychain.delete(key);
      written.clear();
    },
    getIdToken: (forceRefresh = false) =>
      run(async () => {
        const result = await requireUser().getIdTokenResult(forceRefresh);
        return { token: result.token, expiresAt: new Date(result.expirationTime).toISOString() };
      }),
    sendEmailVerification: () => run(() => sendEmailVerification(requireUser())),
    reloadUser: () =>
      run(async () => {
        if (!auth.currentUser) return null;
        await reload(auth.currentUser);
        const profile = toProfile(auth.currentUser);
        // emailVerified may have changed: onAuthStateChanged does not fire for that
        emit();
        return profile;
      }),
    sendPasswordReset: (email) =>
      run(async () => {
        try {
          await sendPasswordResetEmail(auth, email);
        } catch (error) {
          // Same answer whether or not the address has an account (no account enumeration).
          if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
        }
      }),
    updateProfile: (changes) =>
      run(async () => {
        const user = requireUser();
        await updateProfile(user, changes);
        // onAuthStateChanged does not fire for a profile change
        emit();
        return toProfile(user)!;
      }),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      unsubscribe();
      listeners.clear();
      await deleteApp(app);
    },
  };
}
