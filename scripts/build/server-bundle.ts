/**
 * `npm run build:server`: the server as plain JavaScript for `node` after `npm ci --omit=dev` (no tsx).
 *
 *   dist/server/server.js                   the command line (src/server/cli/main.ts): serve, migrate, doctor
 *   dist/server/chunk-reader-worker.mjs     the import reader thread, which chunk-reader.ts starts beside itself
 *   dist/server/migrations/                 the SQL migrations, found beside the bundle (db/client.ts)
 *   dist/server/bundle-meta.json            esbuild's metafile: what the bundle imports at run time
 *
 * Packages stay external (installed by `npm ci --omit=dev`): they must all be `dependencies` of package.json,
 * which tests/ops/production-build.test.ts checks against the metafile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { aliases } from './aliases';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'dist/server');

const common: BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: aliases(root),
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
};

fs.rmSync(out, { recursive: true, force: true });
const results = await Promise.all([
  build({ ...common, entryPoints: ['src/server/cli/main.ts'], outfile: path.join(out, 'server.js') }),
  build({ ...common, entryPoints: ['src/server/imports/chunk-reader-worker.ts'], outfile: path.join(out, 'chunk-reader-worker.mjs') }),
]);
fs.cpSync(path.join(root, 'src/server/db/migrations'), path.join(out, 'migrations'), { recursive: true });

const meta: Metafile = { inputs: {}, outputs: {} };
for (const r of results) {
  Object.assign(meta.inputs, r.metafile?.inputs);
  Object.assign(meta.outputs, r.metafile?.outputs);
}
fs.writeFileSync(path.join(out, 'bundle-meta.json'), JSON.stringify(meta));
console.log(`server bundle in ${path.relative(root, out)}: node ${path.relative(root, path.join(out, 'server.js'))} serve | migrate | doctor`);
