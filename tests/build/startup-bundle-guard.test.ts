// The renderer build fails when React Flow or a canvas editor page reaches the start-up bundle
// (scripts/build/startup-bundle-guard.ts, wired in electron.vite.config.ts).
import { describe, expect, it } from 'vitest';
import { type ChunkInfo, startupViolations } from '../../scripts/build/startup-bundle-guard';

const forbidden = [/\/node_modules\/@xyflow\//, /\/features\/automation\/components\/bot-page\.tsx$/];
const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], isEntry = false): ChunkInfo => ({ type: 'chunk', fileName, isEntry, imports, moduleIds });
const bundleOf = (...chunks: ChunkInfo[]) => Object.fromEntries(chunks.map((c) => [c.fileName, c]));

describe('startup bundle guard', () => {
  it('accepts React Flow and the canvas page in a chunk that is only imported dynamically', () => {
    const bundle = bundleOf(
      chunk('index.js', ['/app/src/renderer/src/main.tsx', '/app/node_modules/react/index.js'], ['vendor.js'], true),
      chunk('vendor.js', ['/app/node_modules/zod/index.js']),
      chunk('bot-page.js', ['/app/src/renderer/src/features/automation/components/bot-page.tsx', '/app/node_modules/@xyflow/react/dist/esm/index.js']),
    );
    expect(startupViolations(bundle, forbidden)).toEqual([]);
  });

  it('reports React Flow bundled into the entry chunk', () => {
    const bundle = bundleOf(chunk('index.js', ['/app/src/renderer/src/main.tsx', '/app/node_modules/@xyflow/react/dist/esm/index.js'], [], true));
    expect(startupViolations(bundle, forbidden)).toEqual([{ chunk: 'index.js', moduleId: '/app/node_modules/@xyflow/react/dist/esm/index.js' }]);
  });

  it('reports a canvas page in a chunk the entry imports statically, however deep', () => {
    const bundle = bundleOf(
      chunk('index.js', ['/app/src/renderer/src/main.tsx'], ['shared.js'], true),
      chunk('shared.js', ['/app/src/renderer/src/lib/format.ts'], ['canvas.js']),
      chunk('canvas.js', ['/app/src/renderer/src/features/automation/components/bot-page.tsx']),
    );
    expect(startupViolations(bundle, forbidden)).toEqual([{ chunk: 'canvas.js', moduleId: '/app/src/renderer/src/features/automation/components/bot-page.tsx' }]);
  });

  it('matches Windows paths too', () => {
    const bundle = bundleOf(chunk('index.js', ['C:\\app\\node_modules\\@xyflow\\system\\dist\\index.js'], [], true));
    expect(startupViolations(bundle, forbidden)).toHaveLength(1);
  });
});
