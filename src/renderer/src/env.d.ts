/// <reference types="vite/client" />

// Values injected with Vite's `define` (scripts/start.ts for web mode, electron.vite.config.ts, the e2e setup).
interface ImportMetaEnv {
  /** Base URL of the Parley server, e.g. http://127.0.0.1:4000. */
  readonly PARLEY_API_URL?: string;
  /** host:port of the Firebase Auth emulator; when set the SDK talks to it instead of Google. */
  readonly PARLEY_AUTH_EMULATOR?: string;
  /** Firebase web config for a real project (unset: the offline `demo-parley` project). */
  readonly PARLEY_FIREBASE_API_KEY?: string;
  readonly PARLEY_FIREBASE_AUTH_DOMAIN?: string;
  readonly PARLEY_FIREBASE_PROJECT_ID?: string;
}
