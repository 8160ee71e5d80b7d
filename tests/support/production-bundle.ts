/**
 * The production bundle (npm run build:server) laid out as the image runs it: dist/ with package.json and
 * package-lock.json in a read-only folder whose node_modules holds only the production packages (links to this
 * checkout's installed ones, or copies where the server's user cannot read the checkout; a test cannot download), and a data folder, the only place the server writes.
 * When the tests run as root (CI, containers) the server runs as `nobody`, as the image's non-root user does.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server-process';
import { until } from './until';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
/** Root can switch to `nobody`; another user runs the server as itself. */
export const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

/** Package names of the bundle's imports: the metafile's externals and its createRequire look-ups. */
export function bundleImports(distDir: string): Set<string> {
  const meta = JSON.parse(fs.readFileSync(path.join(distDir, 'bundle-meta.json'), 'utf8')) as {
    outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
  };
  const specifiers = Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  for (const file of ['server.js', 'chunk-reader-worker.mjs']) {
    const text = fs.readFileSync(path.join(distDir, file), 'utf8');
    for (const m of text.matchAll(/\b(?:require\d*|\.resolve)\("([^"./][^"]*)"\)/g)) specifiers.push(m[1]);
  }
  const names = specifiers
    .filter((s) => !s.startsWith('node:'))
    .map((s) => s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/'));
  return new Set(names);
}

/** Whether the server's user can read this file (a checkout under a private folder, such as `mktemp -d`, it cannot). */
function serverUserCanRead(file: string): boolean {
  if (!asRoot) return true;
  return spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', 'test', '-r', file]).status === 0;
}

/**
 * Puts node_modules/<name> in place for every package the lockfile installs without dev (`npm ci --omit=dev`):
 * a link to this checkout's copy, or a copy of it where the server's user cannot reach the checkout.
 */
function linkProductionPackages(appDir: string) {
  const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const installed = fs.realpathSync(path.join(repoRoot, 'node_modules'));
  const copy = !serverUserCanRead(path.join(installed, 'zod', 'package.json'));
  for (const [key, meta] of Object.entries(lock.packages)) {
    const name = key.replace(/^node_modules\//, '');
    if (!key.startsWith('node_modules/') || name.includes('node_modules/') || meta.dev) continue;
    const source = path.join(installed, name);
    if (!fs.existsSync(source)) continue; // an optional package of another platform
    const target = path.join(appDir, 'node_modules', name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (copy) fs.cpSync(source, target, { recursive: true, dereference: true });
    else fs.symlinkSync(source, target);
  }
}

/** Sets or clears write permission on every file and folder under `dir` (links are left alone). */
function setWritable(dir: string, writable: boolean) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) setWritable(path.join(dir, entry.name), writable);
    else if (entry.isFile()) fs.chmodSync(path.join(dir, entry.name), writable ? 0o644 : 0o444);
  }
  fs.chmodSync(dir, writable ? 0o755 : 0o555);
}

export interface Layout {
  appDir: string;
  /** A fresh PARLEY_DATA_DIR, writable by the server's user. */
  dataDir(): string;
  dispose(): void;
}

/** Runs `npm run build:server` and lays the bundle out read-only, as the image does. */
export function buildProductionLayout(): Layout {
  const build = spawnSync('npm', ['run', 'build:server'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:server failed:\n${build.stdout}\n${build.stderr}`);
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-prod-'));
  fs.chmodSync(top, 0o755);
  const appDir = path.join(top, 'app');
  fs.cpSync(path.join(repoRoot, 'dist'), path.join(appDir, 'dist'), { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(repoRoot, file), path.join(appDir, file));
  linkProductionPackages(appDir);
  setWritable(appDir, false);
  let n = 0;
  return {
    appDir,
    dataDir() {
      const dir = path.join(top, `data-${n++}`);
      fs.mkdirSync(dir, { mode: 0o700 });
      if (asRoot) fs.chownSync(dir, NOBODY, NOBODY);
      return dir;
    },
    dispose() {
      setWritable(appDir, true);
      fs.rmSync(top, { recursive: true, force: true });
    },
  };
}

export interface BundleRun {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
}

/** `node dist/server/server.js <args>` in the layout, as nobody when root, with exactly `env` (plus PATH). */
export function runBundle(layout: Layout, args: string[], env: Record<string, string | undefined>): BundleRun {
  const node = [process.execPath, 'dist/server/server.js', ...args];
  const [command, ...commandArgs] = asRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', ...node] : node;
  const child = spawn(command, commandArgs, { cwd: layout.appDir, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += String(d)));
  child.stderr.on('data', (d: Buffer) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts `serve` on a free port and waits for /readyz to answer 200. */
export async function serveBundle(layout: Layout, env: Record<string, string | undefined>): Promise<BundleRun & { baseUrl: string }> {
  const port = await freePort();
  const run = runBundle(layout, ['serve'], { ...env, HOST: '127.0.0.1', PORT: String(port) });
  const baseUrl = `http://127.0.0.1:${port}`;
  let exitCode: number | null | undefined;
  void run.exited.then((code) => (exitCode = code));
  try {
    await until(async () => {
      if (exitCode !== undefined) throw new Error(`the server exited (${exitCode})`);
      return fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status === 200, () => false);
    }, 120_000);
  } catch (err) {
    run.child.kill('SIGKILL');
    throw new Error(`${(err as Error).message} before /readyz answered 200; its output:\n${run.output()}`);
  }
  return { ...run, baseUrl };
}
