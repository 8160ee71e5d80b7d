// The server's layer order and the ban on cycles (.dependency-cruiser.cjs, run by `npm run lint`). Builds a small
// tree of modules in a scratch folder, at the paths the rules name, and cruises it with the project's own
// configuration: every forbidden arrow must be reported, and nothing else.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** file -> what it imports (relative specifiers, as the code writes them). `type:` marks a type-only import. */
const tree: Record<string, string[]> = {
  // allowed: every arrow goes down
  'src/server/app/root.ts': ['../routes/contacts', '../campaigns/runner', '../whatsapp/pipeline', '../db/client'],
  'src/server/routes/contacts.ts': ['../services/contacts', '../auth/access'],
  'src/server/auth/access.ts': ['../campaigns/trigger-keys', '../repositories/members'],
  'src/server/campaigns/runner.ts': ['../services/contacts', '../messaging/outbound', 'type:../whatsapp/pipeline'],
  'src/server/campaigns/trigger-keys.ts': [],
  'src/server/services/contacts.ts': ['../messaging/outbound', '../repositories/members', '../storage/file-store'],
  'src/server/messaging/outbound.ts': ['../whatsapp/graph', '../jobs/queue'],
  'src/server/whatsapp/pipeline.ts': ['./graph', '../realtime/stream', '../repositories/members'],
  'src/server/whatsapp/graph.ts': ['../config'],
  'src/server/realtime/stream.ts': ['../repositories/event-log'],
  'src/server/repositories/members.ts': ['../db/client', '../jobs/queue'],
  'src/server/repositories/event-log.ts': ['../db/client'],
  'src/server/jobs/queue.ts': ['../db/client', '../config'],
  'src/server/db/client.ts': ['../config', '../errors'],
  'src/server/storage/file-store.ts': ['../crypto/secrets'],
  'src/server/crypto/secrets.ts': [],
  'src/server/identity/identity-provider.ts': ['../config'],
  'src/server/config.ts': [],
  'src/server/errors.ts': [],
  'src/server/index.ts': ['./app/root'],
  // forbidden: arrows back up (value and type-only), a cycle, a folder with no place in the order
  'src/server/whatsapp/up-to-engine.ts': ['../campaigns/runner'],
  'src/server/whatsapp/up-to-services.ts': ['type:../services/contacts'],
  'src/server/services/up-to-root.ts': ['../app/root'],
  'src/server/messaging/up-to-services.ts': ['type:../services/contacts'],
  'src/server/repositories/up-to-realtime.ts': ['../realtime/stream'],
  'src/server/jobs/up-to-messaging.ts': ['../messaging/outbound'],
  'src/server/db/up-to-repositories.ts': ['../repositories/members'],
  'src/server/bots/walker.ts': ['./executors'],
  'src/server/bots/executors.ts': ['type:./walker'],
  'src/server/misc/helper.ts': ['../config'],
  'src/main/a.ts': ['./b'],
  'src/main/b.ts': ['./c'],
  'src/main/c.ts': ['./a'],
};

const expected = [
  'server-folder-known: src/server/misc/helper.ts → src/server/config.ts',
  'server-layer-whatsapp: src/server/whatsapp/up-to-engine.ts → src/server/campaigns/runner.ts',
  'server-layer-whatsapp: src/server/whatsapp/up-to-services.ts → src/server/services/contacts.ts',
  'server-layer-services: src/server/services/up-to-root.ts → src/server/app/root.ts',
  'server-layer-messaging: src/server/messaging/up-to-services.ts → src/server/services/contacts.ts',
  'server-layer-repositories: src/server/repositories/up-to-realtime.ts → src/server/realtime/stream.ts',
  'server-layer-jobs: src/server/jobs/up-to-messaging.ts → src/server/messaging/outbound.ts',
  'server-layer-infrastructure: src/server/db/up-to-repositories.ts → src/server/repositories/members.ts',
  // a cycle is reported once, at its first arrow (the type-only arrow closes the bots one)
  'no-circular: src/server/bots/executors.ts → src/server/bots/walker.ts',
  'no-circular: src/main/a.ts → src/main/b.ts',
];

let scratch: string;

function moduleText(imports: string[]): string {
  const lines = imports.map((spec, i) =>
    spec.startsWith('type:') ? `import type * as t${i} from '${spec.slice(5)}';\nexport type T${i} = typeof t${i};` : `import * as m${i} from '${spec}';\nexport const v${i} = m${i};`,
  );
  return `${lines.join('\n')}\nexport const here = 1;\n`;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'parley-layers-'));
  for (const [file, imports] of Object.entries(tree)) {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    writeFileSync(join(scratch, file), moduleText(imports));
  }
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the server layer order and no cycles', () => {
  it('reports every arrow back up, every cycle and an unplaced folder, and nothing that goes down', () => {
    const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), '--config', join(repoRoot, '.dependency-cruiser.cjs'), '--output-type', 'json', 'src'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    expect(run.error).toBeUndefined();
    const result = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[] } };
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([...expected].sort());
    // As `npm run lint` runs it (its plain reporter), a violation fails the step.
    const lint = spawnSync(process.execPath, [join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), '--config', join(repoRoot, '.dependency-cruiser.cjs'), 'src/server/jobs'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    expect(lint.stdout).toContain('server-layer-jobs');
    expect(lint.status).not.toBe(0);
  });

  it('the real tree of src/ has its every server folder placed in the order', () => {
    const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), '--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'src/server'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    const result = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string }[] } };
    expect(result.summary.violations.filter((v) => v.rule.name === 'server-folder-known').map((v) => v.from)).toEqual([]);
  });
});
