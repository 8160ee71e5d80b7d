import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { aliases } from '../scripts/build/aliases';

// Kept under tests/ so the repository's top level stays as the mission names it; paths are from the repo root.
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: repoRoot,
  resolve: { alias: aliases(repoRoot) },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // 2 cores: more parallel files only thrash the emulator and the database.
    maxWorkers: 2,
  },
});
