/**
 * The signed-in user's ID token for the few requests that cannot go through the API client: the event stream
 * (EventSource sends no headers, so `?token=`) and server files fetched for <img>/<video>/downloads.
 * lib/auth.ts points it at the identity in use (web: firebase SDK; desktop: IPC).
 */
let source: () => Promise<string | null> = async () => null;

export function currentIdToken(): Promise<string | null> {
  return source();
}

/** lib/auth.ts and tests replace the source here. */
export function setIdTokenSource(next: () => Promise<string | null>): void {
  source = next;
}
