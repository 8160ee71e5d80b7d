/**
 * Playwright global setup: starts the stack (stack-cli.ts, in its own process) and publishes where it runs as
 * environment variables the workers inherit (read them through tests/e2e/support/fixtures.ts):
 * PARLEY_E2E_WEB_URL, PARLEY_E2E_API_URL, PARLEY_E2E_AUTH_EMULATOR, PARLEY_E2E_SANDBOX_ORIGIN,
 * PARLEY_E2E_SANDBOX_ACCOUNT (JSON), PARLEY_E2E_CONTROL_URL. Returns the teardown that stops it.
 * First it builds out/renderer if it is missing or stale (the desktop suite loads the built renderer).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRendererBuild } from './renderer-build';
import type { StackInfo } from './stack';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureRendererBuild((line) => process.stdout.write(`${line}\n`));
  // A stack already running (`tsx tests/e2e/support/stack-cli.ts` prints the line): reuse it while iterating.
  if (process.env.PARLEY_E2E_STACK) {
    publish(JSON.parse(process.env.PARLEY_E2E_STACK) as StackInfo);
    return async () => undefined;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'tests/e2e/support/stack-cli.ts')], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (process.env.PARLEY_E2E_STACK_LOG === '1') process.stderr.write(d);
  });

  const info = await new Promise<StackInfo>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`e2e stack did not start within 120 s\n${stderr}`)), 120_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^PARLEY_STACK (.+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(JSON.parse(m[1]) as StackInfo);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`e2e stack exited (code ${code}) before it was up\n${stderr}`));
    });
  });

  publish(info);

  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
}

function publish(info: StackInfo) {
  process.env.PARLEY_E2E_WEB_URL = info.webUrl;
  process.env.PARLEY_E2E_API_URL = info.apiUrl;
  process.env.PARLEY_E2E_AUTH_EMULATOR = info.emulatorHost;
  process.env.PARLEY_E2E_SANDBOX_ORIGIN = info.sandboxOrigin;
  process.env.PARLEY_E2E_SANDBOX_ACCOUNT = JSON.stringify(info.sandboxAccount);
  process.env.PARLEY_E2E_CONTROL_URL = info.controlUrl;
}
