/**
 * `npm start`: the whole local stack on embedded defaults.
 * Auth emulator -> WhatsApp sandbox (stand-in Graph API; skipped when GRAPH_API_URL is set) -> server on PGlite
 * (under PARLEY_DATA_DIR, default ./.parley) -> demo workspace on first run -> the desktop app, or, where no
 * Electron binary can be had, the same UI in web mode.
 * `npm run dev` (--no-desktop) skips the desktop app.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SANDBOX_PORT, type Sandbox, startSandbox } from '../src/sandbox';
import { aliases } from './build/aliases';
import { startAuthEmulator } from './lib/auth-emulator';
import { demoLogin, ensureDemo } from './lib/demo-seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const wantDesktop = !args.has('--no-desktop');

process.env.PARLEY_DATA_DIR ??= path.join(root, '.parley');
const dataDir = process.env.PARLEY_DATA_DIR;
process.env.FIREBASE_PROJECT_ID ??= 'demo-parley';
process.env.WHATSAPP_APP_SECRET ??= 'parley-local-app-secret';
process.env.WHATSAPP_VERIFY_TOKEN ??= 'parley-local-verify-token';
process.env.SECRETS_KEY ??= 'parley-local-secrets-key-change-me-in-production';

process.env.LOG_LEVEL ??= 'warn';

const say = (line: string) => console.log(`[parley] ${line}`);
const stoppers: (() => Promise<void>)[] = [];

let shutdown: () => Promise<void> = async () => process.exit(1);
/** what a failed start gives back: the emulator lease and the server, once they exist */
let releaseEmulator: (() => Promise<void>) | undefined;
let closeServer: (() => Promise<unknown>) | undefined;
let stopping = false;

/** Everything `npm start` runs; a failure on the way ends in one line (below), not a stack trace. */
async function main(): Promise<void> {
  const emulator = await startAuthEmulator({ projectId: process.env.FIREBASE_PROJECT_ID, log: () => undefined });
  releaseEmulator = () => emulator.stop();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  say(`auth emulator on http://${emulator.host}`);

  // WhatsApp: the sandbox plays Meta unless GRAPH_API_URL points at a real Graph API. Both sides share the app
  // secret, so the server checks the sandbox's webhook signatures exactly as it would check Meta's.
  let sandbox: Sandbox | undefined;
  const sandboxFile = path.join(dataDir, 'sandbox.json');
  if (!process.env.GRAPH_API_URL) {
    sandbox = await startLocalSandbox();
    process.env.GRAPH_API_URL = sandbox.baseUrl;
    // `npm run sandbox -- say ...` finds this sandbox through this file.
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(sandboxFile, JSON.stringify({ origin: sandbox.origin, baseUrl: sandbox.baseUrl, pid: process.pid }));
    stoppers.push(async () => {
      fs.rmSync(sandboxFile, { force: true });
      await sandbox!.close();
    });
  }

  async function startLocalSandbox(): Promise<Sandbox> {
    const opts = {
      appSecret: process.env.WHATSAPP_APP_SECRET!,
      // Slow enough to watch a message go sent -> delivered -> read and a template go PENDING -> APPROVED.
      statusDelayMs: 700,
      templateReviewDelayMs: 5000,
      stateFile: path.join(process.env.PARLEY_DATA_DIR!, 'sandbox-state.json'),
      log: (line: string) => {
        if (process.env.LOG_LEVEL === 'debug' || /given up|failed/.test(line)) say(`sandbox: ${line}`);
      },
    };
    const port = Number(process.env.SANDBOX_PORT ?? DEFAULT_SANDBOX_PORT);
    try {
      return await startSandbox({ ...opts, port });
    } catch (err) {
      if ((err as { code?: string }).code !== 'EADDRINUSE') throw err;
      say(`port ${port} is taken; the WhatsApp sandbox takes a free one`);
      return startSandbox({ ...opts, port: 0 });
    }
  }

  const { loadConfig } = await import('../src/server/config');
  const { buildApp } = await import('../src/server/app');
  const config = loadConfig();
  const app = await buildApp({ config });
  closeServer = () => app.close();
  await app.listen({ port: config.port, host: config.host });
  const base = `http://${config.host}:${config.port}`;
  // The sandbox posts webhooks over loopback even when the server listens on every interface.
  const loopback = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  sandbox?.setWebhookUrl(`http://${loopback}:${config.port}/webhooks/whatsapp`);

  const demo = await ensureDemo(app, emulator.host, config.firebaseProjectId, sandbox);
  say(`server on ${base} (database: ${app.parley.db.kind}${app.parley.db.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
  say(`API documentation: ${base}/docs`);
  say(`${demo.created ? 'created the demo workspace' : 'demo workspace ready'}; sign in as ${demoLogin.email} / ${demoLogin.password}`);
  if (sandbox) {
    say(`WhatsApp sandbox (stand-in Graph API) on ${sandbox.baseUrl}; webhooks go to ${base}/webhooks/whatsapp`);
    if (demo.whatsapp) say(demo.whatsapp);
    say('make a customer write in: npm run sandbox -- say 14155550199 "Hello!" --name "Mary Jackson"  (more: npm run sandbox -- help)');
  } else {
    say(`WhatsApp: GRAPH_API_URL=${process.env.GRAPH_API_URL} (no sandbox)`);
  }

  let desktop: ReturnType<typeof spawn> | undefined;
  if (wantDesktop) desktop = await startDesktop();
  if (!desktop) await startWebMode();

  async function electronBinaryPresent(): Promise<boolean> {
    return fs.existsSync(path.join(root, 'node_modules/electron/path.txt'));
  }

  /** Electron's install script is denied at install time (no network on the build machines): fetch it now. */
  async function startDesktop(): Promise<ReturnType<typeof spawn> | undefined> {
    if (!(await electronBinaryPresent())) {
      say('fetching the Electron binary (first run only)...');
      const ok = await new Promise<boolean>((resolve) => {
        const p = spawn(process.execPath, [path.join(root, 'node_modules/electron/install.js')], { stdio: 'ignore' });
        const timer = setTimeout(() => {
          p.kill('SIGKILL');
          resolve(false);
        }, 120_000);
        p.on('exit', (code) => {
          clearTimeout(timer);
          resolve(code === 0);
        });
      });
      if (!ok || !(await electronBinaryPresent())) {
        say('the Electron binary could not be downloaded here (no network?): serving the same UI in web mode instead');
        return undefined;
      }
    }
    const child = spawn(path.join(root, 'node_modules/.bin/electron-vite'), ['dev'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PARLEY_API_URL: base, PARLEY_AUTH_EMULATOR: emulator.host },
    });
    child.on('exit', () => void shutdown());
    return child;
  }

  async function startWebMode(): Promise<void> {
    const { createServer } = await import('vite');
    const react = (await import('@vitejs/plugin-react')).default;
    const tailwind = (await import('@tailwindcss/vite')).default;
    const vite = await createServer({
      configFile: false,
      root: path.join(root, 'src/renderer'),
      resolve: { alias: aliases(root) },
      plugins: [react(), tailwind()],
      define: {
        'import.meta.env.PARLEY_API_URL': JSON.stringify(base),
        // The renderer's firebase SDK signs in against the same emulator the server trusts.
        'import.meta.env.PARLEY_AUTH_EMULATOR': JSON.stringify(emulator.host),
      },
      server: { host: '127.0.0.1', port: Number(process.env.PARLEY_WEB_PORT ?? 5173) },
      logLevel: 'warn',
    });
    await vite.listen();
    say(`web UI on ${vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/'}`);
    stoppers.push(() => vite.close());
  }

  shutdown = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping...');
    desktop?.kill('SIGTERM');
    for (const stop of stoppers) await stop().catch(() => undefined);
    await app.close();
    await emulator.stop();
    process.exit(0);
  };
}

process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
main().catch(async (error: unknown) => {
  const line = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  console.error(`[parley] cannot start: ${line}`);
  if (process.env.LOG_LEVEL === 'debug') console.error(error);
  for (const stop of stoppers) await stop().catch(() => undefined);
  await closeServer?.().catch(() => undefined);
  await releaseEmulator?.().catch(() => undefined);
  process.exit(1);
});
