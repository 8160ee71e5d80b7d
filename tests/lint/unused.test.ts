// Nothing dead (knip, run twice by `npm run lint`): a small project in a scratch folder, with the project's own
// knip.config.ts, holds an unused export, an unused file, an export only a test uses and an unused dependency.
// The production run must report each (a test does not keep product code alive), and fail.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const knip = join(repoRoot, 'node_modules/knip/bin/knip.js');

const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'probe', private: true, type: 'module', dependencies: { 'left-pad': '1.3.0' } }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }),
  'src/server/index.ts': `import { used } from './rules';\nimport { alsoUsed } from './used-by-test';\nconsole.log(used(), alsoUsed());\n`,
  'src/server/rules.ts': `export const used = () => 1;\nexport const neverUsed = () => 2;\n`,
  'src/server/used-by-test.ts': `export const alsoUsed = () => 3;\nexport const onlyTestsUse = () => 4;\n`,
  'src/server/orphan.ts': `export const nobodyImportsMe = 5;\n`,
  'tests/server/rules.test.ts': `import { onlyTestsUse } from '../../src/server/used-by-test';\nconsole.log(onlyTestsUse());\n`,
};

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'parley-knip-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    writeFileSync(join(scratch, file), text);
  }
  copyFileSync(join(repoRoot, 'knip.config.ts'), join(scratch, 'knip.config.ts'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(...args: string[]) {
  return spawnSync(process.execPath, [knip, '--no-progress', '--no-config-hints', ...args], { cwd: scratch, encoding: 'utf8' });
}

describe('nothing dead', () => {
  it('the production run reports an unused export, an export only tests use, an unused file and dependency, and fails', () => {
    const out = run('--production');
    expect(out.stdout).toMatch(/Unused files[\s\S]*src\/server\/orphan\.ts/);
    expect(out.stdout).toMatch(/Unused exports[\s\S]*neverUsed/);
    expect(out.stdout).toMatch(/Unused exports[\s\S]*onlyTestsUse/);
    expect(out.stdout).toMatch(/Unused dependencies[\s\S]*left-pad/);
    expect(out.stdout).not.toMatch(/\balsoUsed\b|\bused\b.*rules\.ts/);
    expect(out.status).not.toBe(0);
  }, 60_000);

  it('the full run counts the tests, so only the product-wide dead code is left', () => {
    const out = run();
    expect(out.stdout).toMatch(/neverUsed/);
    expect(out.stdout).not.toMatch(/onlyTestsUse/);
    expect(out.status).not.toBe(0);
  }, 60_000);
});
