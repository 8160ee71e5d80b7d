#!/usr/bin/env node
// `node scripts/check-engines.mjs [package-lock.json]`: fails when a package the lock installs says in its
// `engines.node` that it does not run on the oldest Node the project supports (package.json `engines.node`), the
// mismatch `npm ci` would print as an EBADENGINE warning. CI runs it after `npm ci`; tests/build/engines.test.ts
// runs it on the lock and on a lock that breaks the rule. Plain JavaScript: it must run before anything is compiled.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lockPath = path.resolve(process.argv[2] ?? path.join(root, 'package-lock.json'));
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
// The project's own range comes from the lock's root entry, so a lock is checked against the package.json it was made from.
const floor = semver.minVersion(lock.packages?.['']?.engines?.node ?? '');
if (!floor) {
  console.error(`${lockPath}: the root package names no engines.node range to check against`);
  process.exit(2);
}

const misfits = Object.entries(lock.packages ?? {})
  .filter(([where, pkg]) => where !== '' && typeof pkg.engines?.node === 'string')
  .filter(([, pkg]) => !semver.satisfies(floor, pkg.engines.node))
  .map(([where, pkg]) => `${where.replace(/^.*node_modules\//, '')}@${pkg.version} (${where}) wants Node ${pkg.engines.node}`);

if (misfits.length > 0) {
  console.error(`These packages do not run on Node ${floor.version}, the oldest this project supports:\n  ${misfits.join('\n  ')}`);
  process.exit(1);
}
console.log(`Every package in ${path.basename(lockPath)} runs on Node ${floor.version}`);
