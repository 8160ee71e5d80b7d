/**
 * The stack the browser benchmarks drive (bot-canvas.ts, renderer-chat.ts): the Auth emulator, the server on the
 * benchmark's PostgreSQL database, a signed-up and verified admin, the renderer's production build served as a
 * static host would, and Chromium signed in as that admin. Named lib-* so run.ts does not take it for a benchmark.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { startAuthEmulator } from '../../scripts/lib/auth-emulator';
import { verifyEmail } from '../support/identity-rest';
import { freePort } from '../support/server-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export interface BenchStack {
  app: FastifyInstance;
  apiUrl: string;
  webUrl: string;
  emulatorHost: string;
  /** A scratch directory of this run (the server's files, the renderer's build), removed by stop(). */
  dataDir: string;
  /** The admin who signed up (e-mail verified). */
  member: { id: string; currentWorkspaceId: string };
  email: string;
  password: string;
  /** Builds the renderer for this stack and serves it at webUrl; answers how long the build took (seconds). */
  serveRenderer(): Promise<number>;
  /** Chromium on the login page, the admin's e-mail and password submitted. */
  signedInPage(): Promise<Page>;
  /** Stops everything started, the last first. */
  stop(): Promise<void>;
}

/** The renderer's production build, pointed at the server. */
async function buildRenderer(apiUrl: string, emulatorHost: string, outDir: string) {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  const tailwind = (await import('@tailwindcss/vite')).default;
  await build({
    configFile: false,
    root: path.join(root, 'src/renderer'),
    plugins: [react(), tailwind()],
    define: {
      'import.meta.env.PARLEY_API_URL': JSON.stringify(apiUrl),
      'import.meta.env.PARLEY_AUTH_EMULATOR': JSON.stringify(emulatorHost),
    },
    build: { outDir, emptyOutDir: true },
    logLevel: 'warn',
  });
}

/** Serves the build like a static host with SPA fallback. */
function serveStatic(dir: string, port: number): Promise<http.Server> {
  const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file = path.join(dir, decodeURIComponent(url.pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(dir, 'index.html');
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/**
 * Starts the emulator and the server on `databaseUrl` and signs up an admin of `memberName`. On a failure part
 * way, what was started is stopped before the error is thrown.
 */
export async function startBenchStack(opts: { databaseUrl: string; dataDirPrefix: string; memberName: string }): Promise<BenchStack> {
  const stoppers: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const s of stoppers.reverse()) await s().catch(() => undefined);
    stoppers.length = 0;
  };
  try {
    const emulator = await startAuthEmulator({ projectId: 'demo-parley' });
    stoppers.push(() => emulator.stop());
    const apiPort = await freePort();
    const webPort = await freePort();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const webUrl = `http://127.0.0.1:${webPort}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), opts.dataDirPrefix));
    stoppers.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));

    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    const { loadConfig } = await import('../../src/server/config');
    const { buildApp } = await import('../../src/server/app');
    const app = await buildApp({
      config: loadConfig({
        ...process.env,
        DATABASE_URL: opts.databaseUrl,
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        PARLEY_DATA_DIR: dataDir,
        FIREBASE_PROJECT_ID: 'demo-parley',
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        PUBLIC_URL: apiUrl,
        APP_URL: webUrl,
        SECRETS_KEY: 'parley-bench-secrets-key-0123456789',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_SIGNUP: '1000',
      }),
    });
    await app.listen({ port: apiPort, host: '127.0.0.1' });
    stoppers.push(() => app.close());

    const email = `bench-${randomUUID().slice(0, 8)}@parley-bench.com`;
    const password = 'parley-bench-pass';
    const res = await app.inject({ method: 'POST', url: '/auth/sign-up', payload: { email, password, name: opts.memberName, organizationName: 'Bench Foods' } });
    if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
    const member = res.json() as { id: string; currentWorkspaceId: string };
    await verifyEmail(emulator.host, email);

    return {
      app,
      apiUrl,
      webUrl,
      emulatorHost: emulator.host,
      dataDir,
      member,
      email,
      password,
      async serveRenderer() {
        const t = Date.now();
        const outDir = path.join(dataDir, 'web');
        await buildRenderer(apiUrl, emulator.host, outDir);
        const seconds = (Date.now() - t) / 1000;
        const web = await serveStatic(outDir, webPort);
        stoppers.push(() => new Promise((r) => web.close(r)));
        return seconds;
      },
      async signedInPage() {
        const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
        stoppers.push(() => browser.close());
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        // tsx keeps function names with a `__name` helper that serialised functions carry into the page.
        await page.addInitScript('globalThis.__name = (f) => f;');
        await page.goto(`${webUrl}/login`);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        return page;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
