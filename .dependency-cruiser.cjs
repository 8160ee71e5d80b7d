// dependency-cruiser: the server's layer order and no import cycle anywhere in src/ (`npm run lint`).
//
// The process boundaries (shared, renderer, main, preload, server, sandbox) are ESLint's (eslint.config.js). This
// file adds what a per-file rule cannot see: which folder of src/server may import which, and cycles. Imports only
// go down the list below (docs/architecture.md draws it); type-only imports count, since a type import is an arrow
// of knowledge all the same. Nothing below the composition root (app/) imports it.
//
// tests/lint/layers.test.ts cruises small trees of forbidden and allowed imports with this very file.

/** Top to bottom. Each entry: a name and the paths (relative to src/server) that belong to it. */
const serverLayers = [
  // The command line (serve, migrate, doctor, backup, restore; index.ts is `serve`): it starts the composition
  // root or an operation.
  { name: 'the command line', paths: ['cli/', 'index\\.ts$'] },
  { name: 'the composition root', paths: ['app/', 'app\\.ts$'] },
  // The operator's tasks (backup, restore): on the infrastructure alone.
  { name: 'operations', paths: ['ops/'] },
  { name: 'routes', paths: ['routes/', 'http/'] },
  { name: 'auth', paths: ['auth/'] },
  // automation/ is the admin side of both canvases (bots and campaigns): it builds on the bot engine's admin and preview.
  { name: 'engines', paths: ['campaigns/', 'bots/', 'imports/', 'automation/'] },
  { name: 'services', paths: ['services/'] },
  { name: 'messaging', paths: ['messaging/'] },
  { name: 'whatsapp', paths: ['whatsapp/'] },
  // The event stream reads and follows the event log through its repository, so it sits above repositories.
  { name: 'realtime', paths: ['realtime/'] },
  { name: 'repositories', paths: ['repositories/'] },
  { name: 'jobs', paths: ['jobs/'] },
  { name: 'infrastructure', paths: ['db/', 'storage/', 'identity/', 'crypto/', 'metrics/', 'config\\.ts$', 'errors\\.ts$'] },
];

const SERVER = '^src/server/';
const pathsOf = (layer) => `${SERVER}(?:${layer.paths.join('|')})`;

/** One rule a layer: it may not import any layer above it. */
const layerRules = serverLayers.slice(1).map((layer, i) => {
  const above = serverLayers.slice(0, i + 1);
  return {
    name: `server-layer-${layer.name.replace(/\s+/g, '-')}`,
    comment: `${layer.name} may import only the layers below it: ${above.map((l) => l.name).join(', ')} sit above (docs/architecture.md)`,
    severity: 'error',
    from: { path: pathsOf(layer) },
    to: { path: `${SERVER}(?:${above.flatMap((l) => l.paths).join('|')})` },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle: modules that need each other are one module, or share a third below both',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'server-folder-known',
      comment: 'every folder of src/server has a place in the layer order (.dependency-cruiser.cjs): add it there first',
      severity: 'error',
      from: { path: SERVER, pathNot: `${SERVER}(?:${serverLayers.flatMap((l) => l.paths).join('|')})` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    exclude: { path: '(?:^|/)node_modules/' },
  },
};

