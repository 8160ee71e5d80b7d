// StrykerJS over the modules that hold the rules. Not in CI: a whole run takes hours on 2 cores.
// Run one part at a time:   MUTATION_PART=ipc npm run test:mutation
// Several parts:            MUTATION_PART=ipc,identity npm run test:mutation
// Some lines of a part:     MUTATION_PART=access MUTATION_MUTATE=src/server/auth/access.ts:80-117 npm run test:mutation
// All parts (long):         npm run test:mutation
// Each part mutates its module(s) and runs only the test files that hold that module's rules, so a mutant costs
// seconds, not the whole suite. Scores per part are in docs/mutation-score.md. Reports land in coverage/mutation/.
// A module that holds rules and lands later is one more entry below (its module and its fast test files).

import fs from 'node:fs';

/** @type {Record<string, { mutate: string[]; testFiles: string[] }>} */
export const parts = {
  // Access resolution: which workspace a call acts in and whether the caller's role is enough.
  access: {
    mutate: ['src/server/auth/access.ts'],
    // The unit test holds the rules; route-walk.test.ts walks them over HTTP (minutes per mutant: left out).
    testFiles: ['tests/server/access-resolution.test.ts'],
  },
  // Tenancy of repositories: every read and write is bounded by the workspace.
  // The reads and writes of the repositories (not their mappings to wire shapes: conversations.ts lines 1-49 and
  // resources.ts after line 54 are field-by-field copies, held by the contract tests).
  tenancy: {
    mutate: [
      'src/server/repositories/tenant-crud.ts',
      'src/server/repositories/conversations.ts:50-287',
      'src/server/repositories/contact-list.ts',
      'src/server/repositories/resources.ts:47-54',
    ],
    // Two workspaces with the same customers, the repositories called directly as one of them (seconds a mutant);
    // tenancy-canaries.test.ts and route-walk.test.ts hold the rule over HTTP for every route (minutes a mutant: left out).
    testFiles: ['tests/server/repository-tenancy.test.ts'],
  },
  // The file store's references (what a stored file belongs to, and who may read it).
  files: {
    mutate: ['src/server/storage/file-store.ts'],
    // The store as a unit (no app, no database); the routes' use of it: file-references and storage (slow, left out).
    testFiles: ['tests/server/file-store.test.ts'],
  },
  // Webhook verification: the signature over the raw bytes (a unit test: seconds per mutant).
  signature: {
    mutate: ['src/server/whatsapp/signature.ts'],
    testFiles: ['tests/server/webhook-signature.test.ts'],
  },
  // Webhook verification: the route (verify handshake, raw body, 401 on a bad signature, queueing).
  webhookRoute: {
    mutate: ['src/server/http/whatsapp-webhook.ts'],
    // The route on a bare Fastify instance; webhooks.test.ts runs it inside the whole app (slow, left out).
    testFiles: ['tests/server/webhook-route.test.ts'],
  },
  // Ingest of webhook deliveries: messages, statuses, template reviews, redeliveries.
  ingest: {
    mutate: [
      'src/server/whatsapp/inbound-pipeline.ts',
      'src/server/whatsapp/inbound-messages.ts',
      'src/server/whatsapp/inbound-contents.ts',
      'src/server/whatsapp/inbound-statuses.ts',
      'src/server/whatsapp/template-reviews.ts',
      'src/server/whatsapp/number-quality.ts',
    ],
    // The pipeline called directly on a fresh database (no app, no queue, no sandbox); redelivery.test.ts and
    // webhooks.test.ts hold the same rules through the route and the job queue (a minute per mutant: left out).
    testFiles: ['tests/server/ingest-rules.test.ts'],
  },
  // The outbound path: the 24-hour window, pacing, sending and the answer of the Graph API.
  outbound: {
    mutate: ['src/server/messaging/{outbound,outbound-request,outbound-target,outbound-render,send-claim,send-call,accepted-sends}.ts'],
    // The path called directly on a fresh database with a scripted Graph client (seconds a mutant); outbound.test.ts
    // and messaging.test.ts hold the same rules through the app and the sandbox (about a minute a mutant: left out).
    testFiles: ['tests/server/outbound-rules.test.ts'],
  },
  // Desktop: the IPC router (sender checks, argument and answer schemas).
  ipc: {
    mutate: ['src/main/ipc/router.ts'],
    testFiles: ['tests/main/ipc.test.ts', 'tests/main/ipc-router-answers.test.ts'],
  },
  // Desktop: identity (sign-in, token refresh, keychain).
  identity: {
    mutate: ['src/main/identity/identity.ts'],
    // Against the Auth emulator with a keychain in memory (no OS keyring needed); identity.test.ts uses the real one.
    testFiles: ['tests/main/identity-rules.test.ts'],
  },
  // The campaign runner's rules that need no database: send windows in the recipient's zone, trigger keys and
  // their rate limit (runner.ts itself is the `runner` part).
  campaigns: {
    mutate: ['src/server/campaigns/send-window.ts', 'src/server/campaigns/trigger-keys.ts'],
    testFiles: ['tests/server/campaign-rules.test.ts', 'tests/server/campaign-keys-windows.test.ts'],
  },
  // The bot runtime's network rule: the HTTPRequest node (public addresses only, limits, mappings); walker.ts and
  // executors.ts are the `botRuntime` part.
  bots: {
    mutate: ['src/server/bots/http-node.ts'],
    testFiles: ['tests/server/bot-http-node.test.ts'],
  },
  // The campaign runner: claims, pacing by the tier, send windows, outcomes and completion of a run.
  runner: {
    mutate: ['src/server/campaigns/{runner,run-batch,recipient-step,completion}.ts'],
    testFiles: ['tests/server/campaign-runner-rules.test.ts'],
  },
  // The bot runtime: walking a canvas from node to node, each node's executor, sessions.
  botRuntime: {
    mutate: ['src/server/bots/walker.ts', 'src/server/bots/executors.ts'],
    testFiles: ['tests/server/bot-runtime-rules.test.ts'],
  },
};

const wanted = (process.env.MUTATION_PART ?? Object.keys(parts).join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
for (const name of wanted) {
  if (!parts[name]) throw new Error(`MUTATION_PART: no part "${name}"; the parts are ${Object.keys(parts).join(', ')}`);
}
const chosen = wanted.map((name) => parts[name]);
const mutate = process.env.MUTATION_MUTATE ? process.env.MUTATION_MUTATE.split(',') : [...new Set(chosen.flatMap((p) => p.mutate))];

// The TypeScript checker's program: the mutated files and what they import, not the whole repository. With
// tsconfig.json (src, tests, scripts) a mutant that changes an exported type re-checks every importer, tests
// included: about 30 s a mutant on the shared machine. A mutant that would break only an importer's types is then
// run by the tests instead of being dropped as a compile error (counted by what the tests see).
const checkerTsconfig = '.scratch/tsconfig.mutation.json';
fs.mkdirSync('.scratch', { recursive: true });
fs.writeFileSync(
  checkerTsconfig,
  JSON.stringify(
    {
      extends: '../tsconfig.json',
      // Module augmentations the whole program gets from its other files: @fastify/swagger adds `tags` and
      // `summary` to a route's schema (app.ts imports it; a route module alone does not).
      compilerOptions: { types: ['node', '@fastify/swagger'] },
      include: [],
      files: [...new Set(mutate.map((m) => `../${m.replace(/:[\d-]+$/, '')}`))],
    },
    null,
    2,
  ),
);

const label = (wanted.length === Object.keys(parts).length ? 'all' : wanted.join('+')) + (process.env.MUTATION_MUTATE ? '-lines' : '');

// StrykerJS's options (stryker-mutator.io/docs/stryker-js/configuration). Not annotated with their type: it lives in
// @stryker-mutator/api, which the project does not depend on directly.
export default {
  testRunner: 'vitest',
  // tests/vitest.mutation.config.ts: the project's config with modules kept between runs (a mutant costs its tests).
  vitest: { configFile: 'tests/vitest.mutation.config.ts', related: false },
  checkers: ['typescript'],
  tsconfigFile: checkerTsconfig,
  // Mutants that do not compile are dropped before any test runs (grouped checks: faster, rarely less exact).
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // MUTATION_MUTATE narrows a part to lines, e.g. src/server/auth/access.ts:80-117 (comma-separated).
  mutate,
  testFiles: [...new Set(chosen.flatMap((p) => p.testFiles))],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level values such as a table of labels) are left out of the score: with testFiles,
  // StrykerJS 9.6.1 activates them after the module was imported, so they always "survive" whatever the tests
  // assert (stryker-js issues 6144 and 6209). Their values are asserted word for word by the part's tests instead.
  ignoreStatic: true,
  // 2 cores shared by a team: one test process (MUTATION_CONCURRENCY=2 when the machine is free).
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  // Server tests start an app, a database and a sandbox per file: allow for that on a loaded machine.
  timeoutMS: 60_000,
  timeoutFactor: 2,
  // Inside the worktree (.scratch/ is ignored by git and lint), not under node_modules: a worktree's node_modules is
  // a symlink to another checkout's, and vitest finds no tests in a sandbox below node_modules.
  tempDirName: '.scratch/stryker-tmp',
  cleanTempDir: true,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `coverage/mutation/${label}.html` },
  jsonReporter: { fileName: `coverage/mutation/${label}.json` },
  thresholds: { high: 90, low: 80, break: null },
};
