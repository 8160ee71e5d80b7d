import { create } from 'zustand';
import type { AuthMe } from '@shared/schemas/entities';

/** What the renderer needs of the identity (a plain object: the desktop app will fill it from IPC). */
export interface AuthUser {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  photoURL: string | null;
}

export interface AuthState {
  /** `loading` until the identity service has told us whether someone is signed in. */
  status: 'loading' | 'ready';
  user: AuthUser | null;
  /** GET /auth/me of the signed-in user (with its workspaces); null until loaded. */
  member: AuthMe | null;
  setUser: (user: AuthUser | null) => void;
  setMember: (member: AuthMe | null) => void;
  /** Sign-out: forget user and member. */
  clear: () => void;
}

export const useAuthStore = create<AuthState>()((set) => ({
  status: 'loading',
  user: null,
  member: null,
  setUser: (user) =>
    set((s) => ({
      status: 'ready',
      user,
      // Another identity (or none) means the member we hold is not theirs.
      member: user && s.user?.uid === user.uid ? s.member : null,
    })),
  setMember: (member) => set({ member }),
  clear: () => set({ user: null, member: null, status: 'ready' }),
}));

/** Spec section 4: a user counts as signed in only with a verified e-mail address. */
export function isSignedIn(state: Pick<AuthState, 'user'>): boolean {
  return !!state.user && state.user.emailVerified;
}

/** The current workspace: currentWorkspaceId, else the first workspace joined (spec section 1). */
export function workspaceIdOf(member: Pick<AuthMe, 'currentWorkspaceId' | 'workspaceIds'> | null): string | null {
  if (!member) return null;
  return member.currentWorkspaceId ?? member.workspaceIds[0] ?? null;
}

/** Resolves once the identity service has reported whether someone is signed in. */
export function authSettled(): Promise<void> {
  if (useAuthStore.getState().status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const unsub = useAuthStore.subscribe((s) => {
      if (s.status === 'ready') {
        unsub();
        resolve();
      }
    });
  });
}
