// Repositories own the SQL: no folder of src/server but repositories/ and db/ may import drizzle-orm, the table
// objects of db/schema or the raw-result helper (docs/architecture.md). Feeds the real eslint.config.js snippets at realistic paths, so
// the rule cannot vanish unnoticed; type-only imports stay allowed.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { describe, it, expect } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repoRoot });
const RULE = '@typescript-eslint/no-restricted-imports';

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const fatal = result.messages.filter((m) => m.fatal || m.ruleId === null);
  expect(fatal, `fatal messages for ${filePath}`).toEqual([]);
  return result.messages.filter((m) => m.ruleId === RULE && m.severity === 2);
}

const value = (names: string, spec: string) => `import { ${names} } from '${spec}';\nexport const used = [${names}];\n`;

const forbidden: Array<{ file: string; code: string }> = [
  { file: 'src/server/services/team-service.ts', code: value('and, eq', 'drizzle-orm') },
  { file: 'src/server/services/audience-service.ts', code: value('sql', 'drizzle-orm') },
  { file: 'src/server/services/x.ts', code: value('pgTable', 'drizzle-orm/pg-core') },
  { file: 'src/server/routes/index.ts', code: value('inArray', 'drizzle-orm') },
  { file: 'src/server/services/x.ts', code: `import * as t from '../db/schema';\nexport const tables = t;\n` },
  { file: 'src/server/routes/index.ts', code: value('campaignLogs', '../db/schema') },
  { file: 'src/server/services/deep/x.ts', code: value('invitees', '../../db/schema') },
  { file: 'src/server/services/x.ts', code: value('rowsOf', '../db/client') },
  { file: 'src/server/services/x.ts', code: `export { eq } from 'drizzle-orm';\n` },
  // every other folder of the server too: engines, imports, the event stream, jobs, the WhatsApp channel
  { file: 'src/server/segments/x.ts', code: value('sql', 'drizzle-orm') },
  { file: 'src/server/imports/run-import.ts', code: value('sql', 'drizzle-orm') },
  { file: 'src/server/realtime/stream.ts', code: value('events', '../db/schema') },
  { file: 'src/server/jobs/queue.ts', code: value('sql', 'drizzle-orm') },
  { file: 'src/server/campaigns/runner.ts', code: value('campaignRuns', '../db/schema/campaigns') },
  { file: 'src/server/whatsapp/ingest.ts', code: value('rowsOf', '../db/client') },
  { file: 'src/server/app/build.ts', code: value('eq', 'drizzle-orm') },
  { file: 'src/server/index.ts', code: value('sql', 'drizzle-orm') },
];

const allowed: Array<{ file: string; code: string }> = [
  // types only
  { file: 'src/server/services/x.ts', code: `import type { SQL } from 'drizzle-orm';\nexport type Cond = SQL;\n` },
  { file: 'src/server/services/x.ts', code: `import type * as t from '../db/schema';\nexport type Row = typeof t.bots.$inferSelect;\n` },
  { file: 'src/server/services/x.ts', code: `import type { Executor } from '../db/client';\nexport type Ex = Executor;\n` },
  // repositories are where SQL lives; the rest of the server is not restricted by this rule
  { file: 'src/server/services/x.ts', code: value('contactsPage', '../repositories/contact-list') },
  { file: 'src/server/repositories/x.ts', code: value('and, eq, sql', 'drizzle-orm') },
  { file: 'src/server/repositories/x.ts', code: `import * as t from '../db/schema';\nexport const tables = t;\n` },
  { file: 'src/server/db/migrate.ts', code: value('sql', 'drizzle-orm') },
  { file: 'src/server/campaigns/x.ts', code: `import type { SQL } from 'drizzle-orm';\nexport type Cond = SQL;\n` },
  { file: 'tests/server/x.test.ts', code: value('eq', 'drizzle-orm') },
];

describe('SQL only in repositories', () => {
  it.each(forbidden)('$file must not run: $code', async ({ file, code }) => {
    const errors = await lint(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain('only repositories hold SQL');
    expect(errors[0].message).toContain('src/server/repositories');
  });

  it.each(allowed)('$file may: $code', async ({ file, code }) => {
    expect(await lint(file, code)).toEqual([]);
  });

  it('keeps the layer boundaries for services and routes too', async () => {
    const [result] = await eslint.lintText(`import { x } from '../../renderer/src/lib/api';\nexport const y = x;\n`, {
      filePath: 'src/server/services/x.ts',
    });
    const boundary = result.messages.filter((m) => m.ruleId === 'no-restricted-imports');
    expect(boundary).toHaveLength(1);
    expect(boundary[0].message).toContain('server must not import renderer (ARCHITECTURE section 2)');
  });
});
