// Small steps: no function over 150 lines and no source file over 400 in src/ and scripts/, blank lines and
// comments not counted. Feeds generated code to the real eslint.config.js, so the limits cannot vanish or drift.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { describe, it, expect } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repoRoot });

async function sizeErrors(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result.messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
  return result.messages.filter((m) => (m.ruleId === 'max-lines' || m.ruleId === 'max-lines-per-function') && m.severity === 2);
}

/** A function of `statements` + 4 lines of code (its signature, a declaration, the return and the brace), with blank and comment lines between. */
function fn(name: string, statements: number, padding = false): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += ${i};${padding ? '\n\n  // why this line\n' : ''}`);
  return `export function ${name}(): number {\n  let total = 0;\n${body.join('\n')}\n  return total;\n}\n`;
}

/** A module of `count` one-line constants. */
const constants = (count: number) => Array.from({ length: count }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';

describe('small steps', () => {
  it.each(['src/server/services/x.ts', 'src/renderer/src/features/x/y.tsx', 'src/main/x.ts', 'scripts/lib/x.ts'])(
    'a function of 151 lines in %s fails',
    async (file) => {
      const errors = await sizeErrors(file, fn('long', 147));
      expect(errors.map((e) => e.ruleId)).toEqual(['max-lines-per-function']);
      expect(errors[0].message).toContain('Maximum allowed is 150');
    },
  );

  it('a function of 150 lines passes, and its blank lines and comments do not count', async () => {
    expect(await sizeErrors('src/server/services/x.ts', fn('fits', 146))).toEqual([]);
    expect(await sizeErrors('src/server/services/x.ts', fn('padded', 146, true))).toEqual([]);
  });

  it('an arrow function and a React component are held to the same limit', async () => {
    const arrow = fn('long', 147).replace('export function long(): number {', 'export const long = (): number => {');
    expect((await sizeErrors('src/server/x.ts', arrow)).map((e) => e.ruleId)).toEqual(['max-lines-per-function']);
    const component = `export function View() {\n${Array.from({ length: 149 }, (_, i) => `  const a${i} = ${i};`).join('\n')}\n  return null;\n}\n`;
    expect((await sizeErrors('src/renderer/src/features/x/view.tsx', component)).map((e) => e.ruleId)).toEqual(['max-lines-per-function']);
  });

  it('a file of 401 lines fails; 400 lines with blank lines and comments between pass', async () => {
    const errors = await sizeErrors('src/shared/x.ts', constants(401));
    expect(errors.map((e) => e.ruleId)).toEqual(['max-lines']);
    expect(errors[0].message).toContain('Maximum allowed is 400');
    const padded = constants(400).replace(/\n/g, '\n\n// a comment\n');
    expect(await sizeErrors('src/shared/x.ts', padded)).toEqual([]);
  });

  it('tests are not held to it (a table of cases may be long)', async () => {
    expect(await sizeErrors('tests/server/x.test.ts', fn('long', 300) + constants(500))).toEqual([]);
  });
});
