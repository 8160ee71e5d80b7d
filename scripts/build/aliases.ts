/**
 * Import aliases, one definition for every bundler and test runner (electron.vite.config.ts, tests/vitest.config.ts,
 * the Vite servers of scripts/start.ts and tests/e2e/support/stack.ts); tsconfig.json's `paths` mirrors it for
 * the type checker. `@shared/...` is src/shared, so code deep in the renderer does not spell `../../../../../shared`.
 * The ESLint boundaries treat `@shared` as the shared layer and refuse a specifier that climbs out of it.
 */
import path from 'node:path';

export function aliases(repoRoot: string): Record<string, string> {
  return { '@shared': path.join(repoRoot, 'src/shared') };
}
