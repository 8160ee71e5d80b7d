/** Identity in web mode: the Firebase JS SDK in the page (the Auth emulator locally). */
import {
  type User,
  onIdTokenChanged,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  updateProfile,
} from 'firebase/auth';
import { toProfile } from '@shared/ipc';
import { firebaseAuth } from '../firebase';
import type { Identity } from './identity';

function signedInUser(): User {
  const user = firebaseAuth().currentUser;
  if (!user) throw new Error('Sign in first');
  return user;
}

export function webIdentity(): Identity {
  return {
    kind: 'web',
    start(onUser) {
      onIdTokenChanged(firebaseAuth(), (user) => onUser(toProfile(user)));
    },
    async getIdToken() {
      const user = firebaseAuth().currentUser;
      return user ? user.getIdToken() : null;
    },
    async signIn(email, password) {
      const cred = await signInWithEmailAndPassword(firebaseAuth(), email, password);
      return toProfile(cred.user)!;
    },
    signOut: () => signOut(firebaseAuth()),
    sendVerificationEmail: () => sendEmailVerification(signedInUser()),
    async reloadUser() {
      const user = firebaseAuth().currentUser;
      if (!user) return null;
      const wasVerified = user.emailVerified;
      await user.reload();
      // The server reads `email_verified` from the token: a fresh one carries the news.
      if (!wasVerified && user.emailVerified) await user.getIdToken(true);
      return toProfile(firebaseAuth().currentUser);
    },
    resetPassword: (email) => sendPasswordResetEmail(firebaseAuth(), email),
    async updateProfile(changes) {
      const user = signedInUser();
      await updateProfile(user, changes);
      return toProfile(user);
    },
  };
}
