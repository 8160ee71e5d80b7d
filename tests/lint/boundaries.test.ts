// Feeds the real eslint.config.js snippets at realistic paths and checks that every import
// boundary of ARCHITECTURE section 2 is reported by `no-restricted-imports`, and that the
// allowed imports are not. If the rule or one of its patterns disappears, this fails.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { describe, it, expect } from 'vitest';
import { aliases } from '../../scripts/build/aliases';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repoRoot });

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  // A parse error or an ignored file would make every assertion below meaningless.
  const fatal = result.messages.filter((m) => m.fatal || m.ruleId === null);
  expect(fatal, `fatal messages for ${filePath}`).toEqual([]);
  return result.messages;
}

const restricted = (messages: Linter.LintMessage[]) =>
  messages.filter((m) => m.ruleId === 'no-restricted-imports' && m.severity === 2);

/** import, type import and re-export forms of the same specifier */
const forms = (spec: string) => [
  `import { thing } from '${spec}';\nexport const value = thing;\n`,
  `import type { Thing } from '${spec}';\nexport type Value = Thing;\n`,
  `export * from '${spec}';\n`,
  `import '${spec}';\n`,
];

interface Case {
  /** importing file, relative to the repo root (need not exist) */
  file: string;
  spec: string;
  /** text the rule message must contain */
  message: string;
}

const layerCase = (from: string, to: string, file: string, spec: string): Case => ({
  file,
  spec,
  message: `${from} must not import ${to} (ARCHITECTURE section 2)`,
});

const forbidden: Case[] = [
  // shared imports no other folder, no node builtins, no electron, no react
  layerCase('shared', 'server', 'src/shared/schemas/contact.ts', '../../server/app'),
  layerCase('shared', 'server', 'src/shared/index.ts', '../server/db/schema'),
  layerCase('shared', 'main', 'src/shared/api/routes.ts', '../../main/window'),
  layerCase('shared', 'preload', 'src/shared/ipc.ts', '../preload'),
  layerCase('shared', 'renderer', 'src/shared/api/deep/x.ts', '../../../renderer/src/lib/api'),
  layerCase('shared', 'sandbox', 'src/shared/schemas/message.ts', '../../sandbox/graph'),
  layerCase('shared', 'server', 'src/shared/limits.ts', 'src/server/config'),
  ...['node:fs', 'node:crypto', 'fs', 'fs/promises', 'path', 'crypto', 'node:test'].map(
    (spec): Case => ({ file: 'src/shared/schemas/x.ts', spec, message: 'shared must not import Node builtins' }),
  ),
  ...['electron', 'electron-updater', '@electron/remote'].map(
    (spec): Case => ({ file: 'src/shared/ipc.ts', spec, message: 'shared must not import electron' }),
  ),
  ...['react', 'react-dom/client'].map(
    (spec): Case => ({ file: 'src/shared/schemas/x.ts', spec, message: 'shared must not import react' }),
  ),

  // renderer never imports main, server, sandbox, preload, node builtins or electron
  layerCase('renderer', 'server', 'src/renderer/src/features/x/a.ts', '../../../../server/app'),
  layerCase('renderer', 'server', 'src/renderer/src/features/live-chat/api/list.ts', '../../../../../server/services/x'),
  layerCase('renderer', 'main', 'src/renderer/src/lib/desktop.ts', '../../../main/ipc/handlers'),
  layerCase('renderer', 'sandbox', 'src/renderer/src/app/router.tsx', '../../../sandbox/customers'),
  layerCase('renderer', 'preload', 'src/renderer/src/lib/desktop.ts', '../../../preload/index'),
  layerCase('renderer', 'preload', 'src/renderer/src/main.tsx', '../../preload'),
  ...['node:fs', 'fs', 'path', 'node:path', 'crypto', 'child_process'].map(
    (spec): Case => ({
      file: 'src/renderer/src/features/audience/import.ts',
      spec,
      message: 'renderer must not import Node builtins',
    }),
  ),
  ...['electron', 'electron/renderer', 'electron-updater'].map(
    (spec): Case => ({ file: 'src/renderer/src/lib/desktop.ts', spec, message: 'renderer must not import electron' }),
  ),

  // server never imports renderer, main or preload
  layerCase('server', 'renderer', 'src/server/routes/contacts.ts', '../../renderer/src/lib/api'),
  layerCase('server', 'main', 'src/server/services/campaigns/send.ts', '../../../main/cache'),
  layerCase('server', 'preload', 'src/server/app.ts', '../preload'),
  layerCase('server', 'sandbox', 'src/server/whatsapp/graph-client.ts', '../../sandbox'),
  layerCase('server', 'sandbox', 'src/server/index.ts', '../sandbox/account'),

  // sandbox stands in for Meta: it imports only shared
  layerCase('sandbox', 'server', 'src/sandbox/core.ts', '../server/whatsapp/graph-client'),
  layerCase('sandbox', 'server', 'src/sandbox/x/y.ts', '../../server/db/schema'),
  layerCase('sandbox', 'main', 'src/sandbox/index.ts', '../main/window'),
  layerCase('sandbox', 'preload', 'src/sandbox/index.ts', '../preload'),
  layerCase('sandbox', 'renderer', 'src/sandbox/cli.ts', '../renderer/src/main'),

  // main never imports renderer or server
  layerCase('main', 'renderer', 'src/main/window.ts', '../renderer/src/main'),
  layerCase('main', 'server', 'src/main/cache/sync.ts', '../../server/realtime/stream'),
  layerCase('main', 'server', 'src/main/identity/session.ts', './../../server/auth'),

  // preload imports only shared (and electron)
  layerCase('preload', 'main', 'src/preload/index.ts', '../main/ipc'),
  layerCase('preload', 'server', 'src/preload/index.ts', '../server/app'),
  layerCase('preload', 'renderer', 'src/preload/bridge/x.ts', '../../renderer/src/lib/desktop'),
  layerCase('preload', 'sandbox', 'src/preload/index.ts', '../sandbox'),
  ...['fs', 'node:fs', 'path', 'node:child_process'].map(
    (spec): Case => ({ file: 'src/preload/index.ts', spec, message: 'preload must not import Node builtins' }),
  ),

  // the @shared alias (src/shared) is no way around the rules: no layer may climb out of it
  ...[
    ['renderer', 'src/renderer/src/features/x/a.ts', '@shared/../server/app'],
    ['renderer', 'src/renderer/src/lib/desktop.ts', '@shared/schemas/../../main/window'],
    ['preload', 'src/preload/index.ts', '@shared/../renderer/src/lib/api'],
    ['main', 'src/main/index.ts', '@shared/./../server/realtime/stream'],
    ['server', 'src/server/app.ts', '@shared/../sandbox'],
    ['sandbox', 'src/sandbox/core.ts', '@shared/api/../../server/app'],
    ['shared', 'src/shared/index.ts', '@shared/..'],
  ].map(([from, file, spec]): Case => ({ file, spec, message: `${from} must not climb out of @shared` })),
];

const allowed: Array<{ file: string; spec: string }> = [
  // renderer
  { file: 'src/renderer/src/features/x/a.ts', spec: '../../../../shared/api/routes' },
  { file: 'src/renderer/src/lib/api.ts', spec: '../../../shared' },
  { file: 'src/renderer/src/features/live-chat/components/list.tsx', spec: '../../../components/ui/button' },
  { file: 'src/renderer/src/features/live-chat/components/list.tsx', spec: './row' },
  { file: 'src/renderer/src/main.tsx', spec: 'react-dom/client' },
  { file: 'src/renderer/src/main.tsx', spec: 'zod' },
  { file: 'src/renderer/src/app/router.tsx', spec: '@tanstack/react-router' },
  { file: 'src/renderer/src/features/live-chat/api/list.ts', spec: '@shared/schemas/entities' },
  { file: 'src/renderer/src/lib/api.ts', spec: '@shared' },
  // server
  { file: 'src/server/routes/contacts.ts', spec: '../../shared/schemas/contact' },
  { file: 'src/server/services/x.ts', spec: '@shared/template-variables' },
  { file: 'src/server/app.ts', spec: '../shared' },
  { file: 'src/server/app.ts', spec: 'node:crypto' },
  { file: 'src/server/app.ts', spec: 'fastify' },
  { file: 'src/server/services/x.ts', spec: '../repositories/contacts' },
  // sandbox
  { file: 'src/sandbox/core.ts', spec: '../shared/schemas/entities' },
  { file: 'src/sandbox/server.ts', spec: 'fastify' },
  { file: 'src/sandbox/core.ts', spec: 'node:crypto' },
  { file: 'src/sandbox/templates.ts', spec: '@shared/template-variables' },
  { file: 'tests/sandbox/graph-client.test.ts', spec: '../../src/sandbox' },
  // main
  { file: 'src/main/ipc/handlers.ts', spec: '../../shared/ipc' },
  { file: 'src/main/index.ts', spec: '../shared' },
  { file: 'src/main/ipc/handlers.ts', spec: '@shared/ipc' },
  { file: 'src/main/index.ts', spec: 'electron' },
  { file: 'src/main/index.ts', spec: 'node:path' },
  { file: 'src/main/cache/db.ts', spec: 'better-sqlite3' },
  { file: 'src/main/index.ts', spec: './window' },
  // preload
  { file: 'src/preload/index.ts', spec: 'electron' },
  { file: 'src/preload/index.ts', spec: '../shared/ipc' },
  { file: 'src/preload/index.ts', spec: '@shared/ipc' },
  { file: 'src/preload/index.ts', spec: 'node:events' },
  { file: 'src/preload/index.ts', spec: './bridge' },
  // shared
  { file: 'src/shared/schemas/contact.ts', spec: 'zod' },
  { file: 'src/shared/index.ts', spec: './schemas/contact' },
  { file: 'src/shared/api/routes.ts', spec: '../schemas' },
  // folders outside the layers are not restricted
  { file: 'tests/server/contacts.test.ts', spec: '../../src/server/app' },
  { file: 'scripts/start.ts', spec: '../src/server/app' },
];

describe('import boundaries (ARCHITECTURE section 2)', () => {
  it.each(forbidden)('$file must not import $spec', async ({ file, spec, message }) => {
    for (const code of forms(spec)) {
      const errors = restricted(await lint(file, code));
      expect(errors, code).toHaveLength(1);
      expect(errors[0].message).toContain(message);
    }
  });

  it.each(allowed)('$file may import $spec', async ({ file, spec }) => {
    for (const code of forms(spec)) {
      expect(restricted(await lint(file, code)), code).toEqual([]);
    }
  });

  it('reports the rule as an error for every layer folder', async () => {
    for (const layer of ['shared', 'renderer', 'server', 'main', 'preload', 'sandbox']) {
      const config = await eslint.calculateConfigForFile(`src/${layer}/x.ts`);
      const setting = config.rules?.['no-restricted-imports'];
      expect(setting, layer).toBeDefined();
      expect([2, 'error']).toContain(Array.isArray(setting) ? setting[0] : setting);
    }
  });

  it('resolves @shared to src/shared and nowhere else, for the bundlers and the type checker alike', () => {
    expect(aliases(repoRoot)).toEqual({ '@shared': resolve(repoRoot, 'src/shared') });
    const tsconfig = JSON.parse(readFileSync(resolve(repoRoot, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
    expect(tsconfig.compilerOptions.paths).toEqual({ '@shared': ['./src/shared'], '@shared/*': ['./src/shared/*'] });
  });

  it('also covers .tsx files', async () => {
    const code = `import { app } from '../../../../server/app';\nexport const X = () => <div>{String(app)}</div>;\n`;
    const errors = restricted(await lint('src/renderer/src/features/x/view.tsx', code));
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain('renderer must not import server');
  });
});
