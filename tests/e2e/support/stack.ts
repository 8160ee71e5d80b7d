/**
 * The real local stack for end-to-end tests, in web mode: the Firebase Auth emulator (reused on 9099 when it
 * answers), the WhatsApp sandbox, the server on PGlite in a temporary PARLEY_DATA_DIR on
 * a free port, and Vite serving src/renderer (as scripts/start.ts does for web mode).
 *
 * Run in its own process by global-setup.ts (stack-cli.ts), so the server's work never competes with the test
 * runner's event loop and a crash of one does not take down the other.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { startSandbox, type SandboxAccount } from '../../../src/sandbox/index';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { aliases } from '../../../scripts/build/aliases';
import { startAuthEmulator } from '../../../scripts/lib/auth-emulator';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface StackInfo {
  webUrl: string;
  apiUrl: string;
  emulatorHost: string;
  /** http://127.0.0.1:PORT of the sandbox (control endpoints under /_sandbox). */
  sandboxOrigin: string;
  sandboxAccount: SandboxAccount;
  /** http://127.0.0.1:PORT of the stack's own control server: POST /sandbox/accounts -> a new sandbox number. */
  controlUrl: string;
  dataDir: string;
}

export interface Stack extends StackInfo {
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function startStack(log: (line: string) => void = () => undefined): Promise<Stack> {
  const stoppers: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const s of stoppers.reverse()) await s().catch(() => undefined);
  };
  try {
    const emulator = await startAuthEmulator({ projectId: 'demo-parley' });
    stoppers.push(() => emulator.stop());
    log(`auth emulator ${emulator.host} (${emulator.reused ? 'reused' : 'started'})`);

    const appSecret = 'parley-e2e-app-secret';
    const apiPort = await freePort();
    const webPort = await freePort();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const webUrl = `http://127.0.0.1:${webPort}`;

    const sandbox = await startSandbox({ port: 0, appSecret, templateReviewDelayMs: 1500 });
    stoppers.push(() => sandbox.close());
    log(`sandbox ${sandbox.baseUrl}`);

    const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-e2e-'));
    stoppers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      PARLEY_DATA_DIR: dataDir,
      FIREBASE_PROJECT_ID: 'demo-parley',
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      WHATSAPP_APP_SECRET: appSecret,
      WHATSAPP_VERIFY_TOKEN: 'parley-e2e-verify-token',
      SECRETS_KEY: 'parley-e2e-secrets-key-0123456789abcdef',
      PUBLIC_URL: apiUrl,
      APP_URL: webUrl,
      LOG_LEVEL: process.env.PARLEY_E2E_SERVER_LOG ?? 'warn',
      // Sign-ups and invitation look-ups of a whole suite come from one client.
      RATE_LIMIT_SIGNUP: '1000',
      RATE_LIMIT_INVITE: '1000',
      RATE_LIMIT_TOKEN_FAILURES: '1000',
      GRAPH_API_URL: sandbox.baseUrl,
    };
    delete env.DATABASE_URL;
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    const configModule = await import('../../../src/server/config');
    const loadConfig = configModule.loadConfig ?? (configModule as unknown as { default: typeof configModule }).default.loadConfig;
    const appModule = await import('../../../src/server/app');
    const buildApp = appModule.buildApp ?? (appModule as unknown as { default: typeof appModule }).default.buildApp;
    const app = await buildApp({ config: loadConfig(env) });
    await app.listen({ port: apiPort, host: '127.0.0.1' });
    stoppers.push(() => app.close());
    log(`server ${apiUrl} (PGlite in ${dataDir})`);
    sandbox.setWebhookUrl(`${apiUrl}/webhooks/whatsapp`);

    const { createServer } = await import('vite');
    const react = (await import('@vitejs/plugin-react')).default;
    const tailwind = (await import('@tailwindcss/vite')).default;
    const vite = await createServer({
      configFile: false,
      root: path.join(root, 'src/renderer'),
      resolve: { alias: aliases(root) },
      // Pre-bundled deps per checkout, not in the (possibly shared) node_modules/.vite: another checkout's Vite
      // with another config would re-optimize them under this one, and with HMR off the page never reloads.
      cacheDir: path.join(root, '.parley', 'vite-e2e'),
      plugins: [react(), tailwind()],
      define: {
        'import.meta.env.PARLEY_API_URL': JSON.stringify(apiUrl),
        'import.meta.env.PARLEY_AUTH_EMULATOR': JSON.stringify(emulator.host),
      },
      server: { host: '127.0.0.1', port: webPort, strictPort: true, hmr: false },
      logLevel: 'warn',
      clearScreen: false,
    });
    await vite.listen();
    stoppers.push(() => vite.close());
    log(`web ${webUrl}`);

    // A WhatsApp number can be connected to one workspace only, so each spec that connects one asks for its own.
    const control = createHttpServer((req, res) => {
      if (req.method === 'POST' && req.url === '/sandbox/accounts') {
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(sandbox.addAccount()));
        return;
      }
      res.writeHead(404).end();
    });
    const controlPort = await new Promise<number>((resolve) =>
      control.listen(0, '127.0.0.1', () => resolve((control.address() as { port: number }).port)),
    );
    stoppers.push(() => new Promise((resolve) => control.close(() => resolve(undefined))));

    return {
      controlUrl: `http://127.0.0.1:${controlPort}`,
      webUrl,
      apiUrl,
      emulatorHost: emulator.host,
      sandboxOrigin: sandbox.origin,
      sandboxAccount: sandbox.account,
      dataDir,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
