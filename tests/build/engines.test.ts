// A clean install on the oldest Node the project supports prints no engine warning: every package the lock installs
// accepts that Node in its `engines.node` (scripts/check-engines.mjs, also run by CI after `npm ci`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = path.join(root, 'scripts/check-engines.mjs');
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } }>;
};

const check = (lockPath?: string) =>
  spawnSync(process.execPath, [script, ...(lockPath ? [lockPath] : [])], { cwd: root, encoding: 'utf8', timeout: 30_000 });

function writeLock(packages: typeof lock.packages): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lock-')), 'package-lock.json');
  fs.writeFileSync(file, JSON.stringify({ lockfileVersion: 3, packages }));
  return file;
}

describe('package engines', () => {
  it('the project says which Node it needs, and the lock was made from that package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('>=20.19');
    expect(lock.packages[''].engines?.node).toBe(pkg.engines.node);
  });

  it('every package in the lock runs on Node 20.19', () => {
    const r = check();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('runs on Node 20.19.0');
  });

  it('names each package that wants a newer Node, and fails', () => {
    const file = writeLock({
      '': { engines: { node: '>=20.19' } },
      'node_modules/fine': { version: '1.0.0', engines: { node: '^18.17.0 || >=20.5.0' } },
      'node_modules/@scope/needs-22': { version: '4.2.1', engines: { node: '>=22.12.0' } },
      'node_modules/a/node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } },
    });
    const r = check(file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('@scope/needs-22@4.2.1 (node_modules/@scope/needs-22) wants Node >=22.12.0');
    expect(r.stderr).toContain('cookie@2.0.2 (node_modules/a/node_modules/cookie) wants Node >=22');
    expect(r.stderr).not.toContain('fine@');
  });
});
