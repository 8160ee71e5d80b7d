// The app's build of the main process (electron.vite.config.ts) makes the sync's page thread its own entry,
// out/main/page-worker.mjs beside index.js, and that file runs as a thread from Node: what src/main/index.ts
// starts in the app. esbuild, which bundles the thread in development, stays out of the app's bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PageThread } from '../../src/main/cache/page-thread';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// inside the repository, so the built files find node_modules as out/main does
const outDir = path.join(root, 'node_modules/.cache', `parley-main-build-${process.pid}`);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

/** electron-vite's main build only (the renderer is not needed here), into outDir. */
async function buildMain(): Promise<void> {
  const { resolveConfig } = await import('electron-vite');
  const { build } = await import('vite');
  process.env.NODE_ENV_ELECTRON_VITE = 'production';
  const resolved = await resolveConfig({ configFile: path.join(root, 'electron.vite.config.ts'), logLevel: 'silent' }, 'build', 'production');
  const main = resolved.config!.main!;
  await build({ ...main, logLevel: 'silent', build: { ...main.build, outDir } });
}

describe('the main process build', () => {
  it('emits the page thread as out/main/page-worker.mjs, which parses a page from Node', async () => {
    await buildMain();
    expect(fs.readdirSync(outDir)).toEqual(expect.arrayContaining(['index.js', 'page-worker.mjs']));
    const index = fs.readFileSync(path.join(outDir, 'index.js'), 'utf8');
    expect(index).toContain('usePageWorkerEntry(pathToFileURL(join(here, "page-worker.mjs")))');
    // esbuild's own code (a development dependency, not shipped) is not bundled
    expect(index).not.toContain('ESBUILD_BINARY_PATH');

    const log: string[] = [];
    const thread = new PageThread(async () => ({ file: pathToFileURL(path.join(outDir, 'page-worker.mjs')) }), (line) => log.push(line));
    const contact = {
      id: '00000000-0000-4000-8001-000000000001', createdAt: '2026-01-01T00:00:00.000Z', workspaceId: '00000000-0000-4000-8000-000000000001',
      name: 'Ada Lovelace', attributes: {}, channel: 'WhatsApp', phoneNumber: '+14150000001', email: null, tags: ['vip'], country: 'PT', city: 'Porto',
      meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null,
    };
    const page = await thread.parse('contacts', JSON.stringify({ items: [contact], nextCursor: 'next' }));
    expect(page.nextCursor).toBe('next');
    expect(page.rows).toEqual([expect.objectContaining({ id: contact.id, name: 'Ada Lovelace', phone: '+14150000001', tags: 'vip', data: JSON.stringify(contact) })]);
    expect(log).toEqual([]);
    expect(thread.started.count).toBe(1);
    await thread.stop();
  }, 120_000);
});
