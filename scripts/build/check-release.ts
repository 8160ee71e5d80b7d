// The release workflow's first step: refuses to build when the release configuration lost a fuse, the signing
// rules, the https feed, or the workflow's own hardening (scripts/build/release-config.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builderConfigProblems, readYaml, releaseWorkflowProblems } from './release-config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const problems = [
  ...builderConfigProblems(readYaml(path.join(root, 'electron-builder.yml')), root, process.env),
  ...releaseWorkflowProblems(readYaml(path.join(root, '.github/workflows/release.yml'))),
];
for (const problem of problems) console.error(`release configuration: ${problem}`);
if (problems.length) process.exit(1);
console.log('release configuration: fuses, entitlements, signing, feed and workflow checked');
