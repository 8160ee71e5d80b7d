#!/usr/bin/env node
// `npm test`: vitest with tests/vitest.config.ts, arguments passed through (`npm test -- tests/server`).
// The desktop main-process tests keep sessions in the real OS keychain. On Linux without a reachable keyring (no
// Secret Service, no session keyring: a fresh shell, a container, CI) this script runs vitest again inside a
// kernel session keyring of its own (`keyctl session -`, Debian/Ubuntu package keyutils), so `npm test` alone is
// the whole test command. Plain JavaScript: it must start before anything is compiled.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
/** set in the re-run inside `keyctl session`, so it never loops */
const IN_SESSION = 'PARLEY_TEST_IN_KEYRING_SESSION';

/** Whether a secret can be written and read back in the OS keychain (what the desktop tests need). */
async function keychainReachable() {
  // Test hook (tests/build/test-command.test.ts): play a machine without a keyring.
  if (process.env.PARLEY_TEST_ASSUME_NO_KEYRING === '1' && !process.env[IN_SESSION]) return false;
  try {
    const { Entry } = await import('@napi-rs/keyring');
    const entry = new Entry(`parley-test-probe-${process.pid}`, 'probe');
    entry.setPassword('ok');
    const ok = entry.getPassword() === 'ok';
    entry.deleteCredential();
    return ok;
  } catch {
    return false;
  }
}

function run(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const vitest = process.env.PARLEY_TEST_RUNNER
  ? [process.env.PARLEY_TEST_RUNNER]
  : [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'tests/vitest.config.ts'];

if (process.platform !== 'linux' || process.env[IN_SESSION] || (await keychainReachable())) {
  run(process.execPath, [...vitest, ...args]);
} else if (spawnSync('keyctl', ['--version'], { stdio: 'ignore' }).error) {
  console.error(
    'npm test: the desktop tests need an OS keychain, and this Linux session has none (no Secret Service, no session keyring).\n' +
      'Install keyutils so npm test can open a session keyring by itself: sudo apt-get install keyutils (Debian/Ubuntu), ' +
      'sudo dnf install keyutils (Fedora).',
  );
  process.exit(1);
} else {
  run('keyctl', ['session', '-', process.execPath, fileURLToPath(import.meta.url), ...args], { ...process.env, [IN_SESSION]: '1' });
}
