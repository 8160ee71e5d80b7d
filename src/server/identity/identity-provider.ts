/**
 * Identity is Firebase Authentication (the emulator locally and in tests). This module is the only place that
 * talks to it, so the rest of the server sees a small interface.
 */
import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { type Auth, getAuth } from 'firebase-admin/auth';

export interface VerifiedToken {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  /** When the ID token stops being valid (its `exp`): an event stream opened with it ends then. */
  expiresAt: Date;
}

export interface IdentityProfile {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  photoURL: string | null;
  phone: string | null;
  metadata: { creationTime: string | null; lastSignInTime: string | null };
}

export interface IdentityProvider {
  /**
   * Checks an ID token's signature and expiry; with `checkRevoked` also asks the identity service whether the
   * user still exists, is enabled and has not had its tokens revoked since (one more round trip).
   */
  verifyIdToken(token: string, checkRevoked?: boolean): Promise<VerifiedToken>;
  createUser(input: { email: string; password: string; displayName?: string }): Promise<string>;
  deleteUser(uid: string): Promise<void>;
  findUidByEmail(email: string): Promise<string | null>;
  profiles(uids: string[]): Promise<Map<string, IdentityProfile>>;
  close(): Promise<void>;
}

/** Identity errors that mean the caller's input is wrong, with the message to show. */
export class IdentityInputError extends Error {
  constructor(
    message: string,
    readonly statusCode: 400 | 409,
  ) {
    super(message);
  }
}

let appCounter = 0;

/**
 * The Auth emulator accepts unsigned tokens: with FIREBASE_AUTH_EMULATOR_HOST set against a real project, anyone
 * could mint a token for any user. Firebase's own rule is that emulator projects are `demo-` projects; the server
 * refuses to start otherwise.
 */
export function assertSafeIdentityConfig(projectId: string, emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST): void {
  if (emulatorHost && !projectId.startsWith('demo-')) {
    throw new Error(
      `FIREBASE_AUTH_EMULATOR_HOST is set while FIREBASE_PROJECT_ID is "${projectId}": the emulator's unsigned tokens would be ` +
        'accepted for a real project. Use a demo- project with the emulator, or unset FIREBASE_AUTH_EMULATOR_HOST.',
    );
  }
}

export function firebaseIdentity(projectId: string, emulatorHost?: string): IdentityProvider {
  assertSafeIdentityConfig(projectId, emulatorHost);
  if (emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  const app: App = initializeApp({ projectId }, `parley-${process.pid}-${++appCounter}`);
  const auth: Auth = getAuth(app);

  const mapCreateError = (err: unknown): never => {
    const code = (err as { code?: string }).code ?? '';
    if (code === 'auth/email-already-exists') throw new IdentityInputError('An account with this email address already exists', 409);
    if (code === 'auth/invalid-password') throw new IdentityInputError('Password must be 8 to 50 characters', 400);
    if (code === 'auth/invalid-email') throw new IdentityInputError('Please enter a valid email address', 400);
    throw err;
  };

  return {
    async verifyIdToken(token, checkRevoked = false) {
      const d = await auth.verifyIdToken(token, checkRevoked);
      return { uid: d.uid, email: d.email ?? null, emailVerified: d.email_verified === true, expiresAt: new Date(d.exp * 1000) };
    },
    async createUser({ email, password, displayName }) {
      try {
        const u = await auth.createUser({ email, password, displayName, emailVerified: false });
        return u.uid;
      } catch (err) {
        return mapCreateError(err);
      }
    },
    async deleteUser(uid) {
      try {
        await auth.deleteUser(uid);
      } catch (err) {
        if ((err as { code?: string }).code !== 'auth/user-not-found') throw err;
      }
    },
    async findUidByEmail(email) {
      try {
        return (await auth.getUserByEmail(email)).uid;
      } catch (err) {
        if ((err as { code?: string }).code === 'auth/user-not-found') return null;
        throw err;
      }
    },
    async profiles(uids) {
      const out = new Map<string, IdentityProfile>();
      for (let i = 0; i < uids.length; i += 100) {
        const r = await auth.getUsers(uids.slice(i, i + 100).map((uid) => ({ uid })));
        for (const u of r.users) {
          out.set(u.uid, {
            uid: u.uid,
            email: u.email ?? null,
            emailVerified: u.emailVerified,
            displayName: u.displayName ?? null,
            photoURL: u.photoURL ?? null,
            phone: u.phoneNumber ?? null,
            metadata: {
              creationTime: u.metadata.creationTime ?? null,
              lastSignInTime: u.metadata.lastSignInTime ?? null,
            },
          });
        }
      }
      return out;
    },
    close: () => deleteApp(app),
  };
}
