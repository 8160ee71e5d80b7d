// ESLint 9 flat config for Parley.
//
// Besides the usual recommended rules, this file enforces the import boundaries of
// ARCHITECTURE.md section 2 with `no-restricted-imports`, one block per layer folder:
//
//   shared   imports no other folder of the repo, no node builtins, no electron, no react
//   renderer never imports main, server, sandbox, preload, node builtins or electron
//   server   never imports renderer, main, preload or sandbox (the sandbox is an outside party)
//   sandbox  never imports server, main, preload or renderer (it stands in for Meta: shared only)
//   main     never imports renderer or server
//   preload  imports only shared (and electron, plus the few builtins a sandboxed preload has)
//
// `@shared/...` is an alias of src/shared (scripts/build/aliases.ts): allowed wherever shared is, and never
// with `..` in it, so it cannot become a way around these rules.
//
// The patterns are regular expressions over the import specifier. A relative specifier is
// forbidden when, after any number of `../` segments (optionally followed by `src/`), its
// first folder is a forbidden layer; a `src/<layer>` specifier (baseUrl style) is forbidden too.
// The patterns do not know how deep the importing file is, so: do not name a folder inside a
// layer after another layer (no `src/renderer/src/features/server/`), or the rule will flag
// imports of it.
//
// Flat config does not merge rule options: when several blocks match a file, the last
// `no-restricted-imports` setting wins. Each layer folder therefore matches exactly one
// boundary block below; do not add another block that sets this rule for `src/**`.
// tests/lint/boundaries.test.ts checks every forbidden pair against this config.
//
// Inside the server, repositories own the SQL (docs/architecture.md): no folder of src/server but repositories/
// and db/ may import drizzle-orm or the table objects of db/schema, only types from them. That rule is
// `@typescript-eslint/no-restricted-imports` (it knows `import type`), a rule of its own, so it adds to the
// server's boundary block instead of replacing it. tests/lint/sql-in-repositories.test.ts checks it.
//
// Small steps: no function over 150 lines and no file over 400 in src/ and scripts/ (blank lines and comments
// not counted), so a module owns one thing and a factory is a list of named steps. tests/lint/size.test.ts.
//
// The server's layer order and the ban on import cycles are dependency-cruiser's (.dependency-cruiser.cjs),
// unused files, exports and dependencies knip's (knip.json); `npm run lint` runs all three.

import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CODE = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';
const SECTION = '(ARCHITECTURE section 2)';

/** @param {string} s */
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Top-level names of Node's builtin modules (fs, path, crypto, ...), without `node:`. */
const nodeBuiltins = [...new Set(builtinModules.filter((m) => !m.startsWith('node:')).map((m) => m.split('/')[0]))];

/**
 * Regex source matching a specifier that reaches the layer folder `layer` (`src/<layer>`):
 * `../server`, `../../server/app`, `./../../src/server/x`, `src/server/x`, `/src/server`.
 * @param {string} layer
 */
const layerRegex = (layer) => `^(?:(?:\\./)?(?:\\.\\./)+(?:src/)?|/?src/)${escapeRegex(layer)}(?:/|$)`;

/**
 * A no-restricted-imports pattern forbidding `from` to import the layer `to`.
 * @param {string} from
 * @param {string} to
 */
const forbidLayer = (from, to) => ({
  regex: layerRegex(to),
  message: `${from} must not import ${to} ${SECTION}`,
});

/**
 * A pattern forbidding Node builtins (`node:*` and bare names such as `fs`, `fs/promises`).
 * @param {string} from
 * @param {string[]} [allowed] bare builtin names that stay allowed (with and without `node:`)
 * @param {string} [why]
 */
const forbidNodeBuiltins = (from, allowed = [], why = '') => {
  const names = nodeBuiltins.filter((m) => !allowed.includes(m)).map(escapeRegex);
  const allowedAlt = allowed.map(escapeRegex).join('|');
  const nodePrefixed = allowed.length > 0 ? `node:(?!(?:${allowedAlt})(?:/|$))` : 'node:';
  return {
    regex: `^(?:${nodePrefixed}.*|(?:${names.join('|')})(?:/.*)?)$`,
    message: `${from} must not import Node builtins${why} ${SECTION}`,
  };
};

/** electron, electron/*, electron-updater, @electron/* ... */
const forbidElectron = (from) => ({
  regex: '^@?electron(?:$|[/-])',
  message: `${from} must not import electron ${SECTION}`,
});

const forbidReact = (from) => ({
  regex: '^react(?:-dom)?(?:$|/)',
  message: `${from} must not import react (no DOM, no UI) ${SECTION}`,
});

/**
 * `@shared/...` (scripts/build/aliases.ts) is src/shared, which every layer may import; a specifier that climbs
 * out of it (`@shared/../server/app`) would reach any layer, so no layer may use one.
 */
const forbidLeavingSharedAlias = (from) => ({
  regex: '^@shared/(?:.*/)?\\.\\.(?:/|$)',
  message: `${from} must not climb out of @shared with '..': it would bypass the layer boundaries ${SECTION}`,
});

/**
 * @param {string} folder layer folder under src/
 * @param {ReturnType<typeof forbidLayer>[]} patterns
 */
const boundary = (folder, patterns) => ({
  name: `parley/boundaries/${folder}`,
  files: [`src/${folder}/${CODE}`],
  rules: {
    'no-restricted-imports': ['error', { patterns: [...patterns, forbidLeavingSharedAlias(folder)] }],
  },
});

const REPOSITORIES = 'only repositories hold SQL: write the query as a function of src/server/repositories (its executor first) and call that';

/** drizzle-orm, the table objects of db/schema and the raw-result helper: only in repositories and db (types may go anywhere). */
const sqlOnlyInRepositories = {
  name: 'parley/server/sql-in-repositories',
  files: [`src/server/${CODE}`],
  ignores: [`src/server/repositories/${CODE}`, `src/server/db/${CODE}`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: '^drizzle-orm(?:/|$)', allowTypeImports: true, message: REPOSITORIES },
          { regex: '(?:^|/)db/schema(?:/|$)', allowTypeImports: true, message: REPOSITORIES },
          { regex: '(?:^|/)db/client$', importNames: ['rowsOf'], message: REPOSITORIES },
        ],
      },
    ],
  },
};

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    'out/',
    'dist/',
    'test-results/',
    'playwright-report/',
    'bench-results/',
    '.parley/',
    'coverage/',
    '.scratch/',
  ]),

  {
    name: 'parley/base',
    files: [CODE],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'warn',
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-console': 'off',
    },
  },

  {
    name: 'parley/globals/browser',
    files: [`src/renderer/${CODE}`, `tests/renderer/${CODE}`, `tests/e2e/${CODE}`],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    name: 'parley/globals/shared',
    // shared runs everywhere: only the globals common to browsers and Node.
    files: [`src/shared/${CODE}`],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
  },
  {
    name: 'parley/globals/preload',
    files: [`src/preload/${CODE}`],
    languageOptions: { globals: { ...globals.browser, process: 'readonly' } },
  },

  // Import boundaries (ARCHITECTURE section 2). One block per layer, see the header.
  boundary('shared', [
    ...['server', 'main', 'preload', 'renderer', 'sandbox'].map((to) => forbidLayer('shared', to)),
    forbidNodeBuiltins('shared', [], ' (no I/O in the contract)'),
    forbidElectron('shared'),
    forbidReact('shared'),
  ]),
  boundary('renderer', [
    ...['server', 'main', 'sandbox'].map((to) => forbidLayer('renderer', to)),
    {
      regex: layerRegex('preload'),
      message: `renderer must not import preload ${SECTION}; use window.desktop, typed from src/shared`,
    },
    forbidNodeBuiltins('renderer'),
    forbidElectron('renderer'),
  ]),
  boundary('server', ['renderer', 'main', 'preload', 'sandbox'].map((to) => forbidLayer('server', to))),
  sqlOnlyInRepositories,
  {
    name: 'parley/small-steps',
    files: [`src/${CODE}`, `scripts/${CODE}`],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  boundary('sandbox', ['server', 'main', 'preload', 'renderer'].map((to) => forbidLayer('sandbox', to))),
  boundary('main', ['renderer', 'server'].map((to) => forbidLayer('main', to))),
  boundary('preload', [
    ...['main', 'server', 'renderer', 'sandbox'].map((to) => forbidLayer('preload', to)),
    // A sandboxed preload's require() only knows electron, events, timers and url.
    forbidNodeBuiltins('preload', ['events', 'timers', 'url'], ' other than events, timers, url (sandboxed preload)'),
  ]),
]);
