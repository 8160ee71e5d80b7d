/**
 * A build check for the renderer: what the start-up screen loads (the entry chunk and every chunk it imports
 * statically) must not contain the modules given, e.g. @xyflow/react and the canvas editor pages, which the
 * router loads lazily on first visit. A static import slipping in (an index re-export, a shared helper) would
 * silently put them back into start-up; this fails the build instead.
 */
import type { Plugin } from 'vite';

/** The parts of a Rollup/Rolldown output chunk the check reads. */
export interface ChunkInfo {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  imports: string[];
  moduleIds: string[];
}
type BundleItem = ChunkInfo | { type: 'asset'; fileName: string };

/** Module ids in the start-up chunks matching one of `forbidden`, with the chunk each sits in. */
export function startupViolations(bundle: Record<string, BundleItem>, forbidden: RegExp[]): { chunk: string; moduleId: string }[] {
  const chunks = new Map<string, ChunkInfo>();
  for (const item of Object.values(bundle)) if (item.type === 'chunk') chunks.set(item.fileName, item);
  const seen = new Set<string>();
  const queue = [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName);
  const found: { chunk: string; moduleId: string }[] = [];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const chunk = chunks.get(name);
    if (!chunk) continue;
    for (const id of chunk.moduleIds) if (forbidden.some((re) => re.test(id.replace(/\\/g, '/')))) found.push({ chunk: name, moduleId: id });
    queue.push(...chunk.imports);
  }
  return found;
}

export function startupBundleGuard(forbidden: RegExp[]): Plugin {
  return {
    name: 'parley:startup-bundle-guard',
    apply: 'build',
    generateBundle(_options, bundle) {
      const found = startupViolations(bundle as unknown as Record<string, BundleItem>, forbidden);
      if (found.length > 0) {
        const list = found.slice(0, 10).map((f) => `  ${f.moduleId} (in ${f.chunk})`).join('\n');
        this.error(`These modules must load lazily, but the start-up bundle contains them:\n${list}`);
      }
    },
  };
}
