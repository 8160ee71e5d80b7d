/**
 * The Firebase JS SDK in web mode (in the desktop app the main process will own the session and hand out ID
 * tokens over IPC; the rest of the renderer only sees lib/auth.ts).
 */
import { type FirebaseApp, getApps, initializeApp } from 'firebase/app';
import { type Auth, connectAuthEmulator, getAuth } from 'firebase/auth';
import { authEmulatorHost, firebaseConfig } from './config';

let auth: Auth | undefined;

export function firebaseAuth(): Auth {
  if (auth) return auth;
  const app: FirebaseApp = getApps()[0] ?? initializeApp(firebaseConfig);
  auth = getAuth(app);
  if (authEmulatorHost) connectAuthEmulator(auth, `http://${authEmulatorHost}`, { disableWarnings: true });
  return auth;
}
