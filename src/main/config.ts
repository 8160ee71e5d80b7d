// Where the desktop app finds Firebase and its default server: environment at run time (npm start passes
// them), else the values baked in at build time (electron.vite.config.ts), else the local-stack defaults.
import type { FirebaseSettings } from './identity/identity';

declare const __PARLEY_BUILD_CONFIG__: Record<string, string>;
const baked: Record<string, string> = typeof __PARLEY_BUILD_CONFIG__ === 'object' ? __PARLEY_BUILD_CONFIG__ : {};

const read = (env: NodeJS.ProcessEnv, key: string) => env[key] || baked[key] || undefined;

/**
 * A packaged build reads only what was baked in at build time: FIREBASE_AUTH_EMULATOR_HOST or PARLEY_API_URL in
 * the environment of an installed app (set by anyone who can start it) would send the agent's password to a fake
 * sign-in service or its tokens to another server.
 */
export function desktopConfig(
  env: NodeJS.ProcessEnv = process.env,
  { isPackaged = false }: { isPackaged?: boolean } = {},
): { firebase: FirebaseSettings; defaultServerUrl: string | null } {
  if (isPackaged) env = {};
  const projectId = read(env, 'PARLEY_FIREBASE_PROJECT_ID') ?? 'demo-parley';
  const emulator = read(env, 'PARLEY_AUTH_EMULATOR') ?? read(env, 'FIREBASE_AUTH_EMULATOR_HOST');
  return {
    firebase: {
      apiKey: read(env, 'PARLEY_FIREBASE_API_KEY') ?? 'demo-parley-local-key',
      projectId,
      authDomain: read(env, 'PARLEY_FIREBASE_AUTH_DOMAIN'),
      // a demo- project exists only in the emulator
      authEmulatorHost: emulator ?? (projectId.startsWith('demo-') ? '127.0.0.1:9099' : undefined),
    },
    defaultServerUrl: read(env, 'PARLEY_API_URL') ?? null,
  };
}
