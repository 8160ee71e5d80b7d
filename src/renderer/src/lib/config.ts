const trimSlashes = (url: string) => url.replace(/\/+$/, '');

/** The build's server address (see env.d.ts); the desktop app may be pointed elsewhere at start. */
export const defaultApiBaseUrl: string = trimSlashes(import.meta.env.PARLEY_API_URL || 'http://127.0.0.1:4000');

let currentApiBaseUrl = defaultApiBaseUrl;

/** Where the renderer finds the Parley server. */
export function apiBaseUrl(): string {
  return currentApiBaseUrl;
}

/** The desktop app's remembered server address (lib/server-address.ts). */
export function setApiBaseUrl(url: string): void {
  currentApiBaseUrl = trimSlashes(url);
}

const projectId = import.meta.env.PARLEY_FIREBASE_PROJECT_ID || 'demo-parley';

export const firebaseConfig = {
  // The emulator accepts any API key; a real project sets PARLEY_FIREBASE_API_KEY.
  apiKey: import.meta.env.PARLEY_FIREBASE_API_KEY || 'demo-parley-local-key',
  authDomain: import.meta.env.PARLEY_FIREBASE_AUTH_DOMAIN || `${projectId}.firebaseapp.com`,
  projectId,
};

/**
 * host:port of the Auth emulator. A `demo-` project only ever exists in the emulator, so it falls back to the
 * emulator's default address.
 */
export const authEmulatorHost: string | undefined =
  import.meta.env.PARLEY_AUTH_EMULATOR || (projectId.startsWith('demo-') ? '127.0.0.1:9099' : undefined);
