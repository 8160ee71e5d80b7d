import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

// StrykerJS runs the part's test files once per mutant in one test process. With modules kept between those
// runs (isolate: false), a mutant costs its tests, not a fresh import of the server's module graph (about 10 s
// on the shared machine). Mutants are switched at run time, so a kept module still sees the active one; static
// mutants are ignored (stryker.config.mjs). Used only by stryker.config.mjs, never by `npm test`.
export default mergeConfig(base, defineConfig({ test: { isolate: false } }));
