/**
 * The signed-in user's ID token for the few requests that cannot go through the API client: the event stream
 * (EventSource sends no headers, so `?token=`) and server files fetched for <img>/<video>/downloads.
 */
import { firebaseAuth } from './firebase';

let source: () => Promise<string | null> = async () => {
  const user = firebaseAuth().currentUser;
  return user ? user.getIdToken() : null;
};

export function currentIdToken(): Promise<string | null> {
  return source();
}

/** The desktop app (tokens over IPC) and tests replace the source here. */
export function setIdTokenSource(next: () => Promise<string | null>): void {
  source = next;
}
