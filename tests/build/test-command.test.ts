// `npm test` (scripts/test.mjs) opens a session keyring by itself on Linux when none is reachable, passes its
// arguments through, and names the package to install when keyctl is missing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wrapper = path.join(root, 'scripts/test.mjs');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** Stands in for vitest: prints its arguments and whether the keychain works where it runs. */
const fakeRunner = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-runner-')), 'runner.mjs');
fs.writeFileSync(
  fakeRunner,
  `import { Entry } from '${path.join(root, 'node_modules/@napi-rs/keyring/index.js').replace(/\\/g, '/')}';
   let keychain = 'none';
   try { const e = new Entry('parley-runner-' + process.pid, 'x'); e.setPassword('ok'); keychain = e.getPassword(); e.deleteCredential(); } catch {}
   console.log(JSON.stringify({ args: process.argv.slice(2), keychain }));`,
);

const runWrapper = (env: Record<string, string>, args: string[]) =>
  spawnSync(process.execPath, [wrapper, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, PARLEY_TEST_RUNNER: fakeRunner, ...env }, timeout: 30_000 });

describe('npm test', () => {
  it('is the wrapper', () => {
    expect(pkg.scripts.test).toBe('node scripts/test.mjs');
  });

  it.runIf(process.platform === 'linux')('runs the tests inside a session keyring when the machine has none, arguments passed through', () => {
    const result = runWrapper({ PARLEY_TEST_ASSUME_NO_KEYRING: '1', PARLEY_TEST_IN_KEYRING_SESSION: '' }, ['tests/server', '--reporter=dot']);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toEqual({ args: ['tests/server', '--reporter=dot'], keychain: 'ok' });
  });

  it.runIf(process.platform === 'linux')('says which package to install when keyctl is missing', () => {
    const emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-nobin-'));
    const result = runWrapper({ PARLEY_TEST_ASSUME_NO_KEYRING: '1', PARLEY_TEST_IN_KEYRING_SESSION: '', PATH: emptyBin }, []);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('apt-get install keyutils');
    expect(result.stdout).toBe('');
  });
});
