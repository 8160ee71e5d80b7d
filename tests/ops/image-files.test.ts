/**
 * The image's files, read as an operator's tools read them (no container engine runs here: docs/operations.md).
 * .env.example must name every configuration name the server reads; compose.yaml and the Dockerfile must keep
 * the promises of docs/operations.md (PostgreSQL healthy first, read-only root, non-root user, node health check).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../support/production-bundle';

const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

/** Every environment name the server reads: config.ts's Env schema and direct process.env reads in src/server. */
function configurationNames(): string[] {
  const config = read('src/server/config.ts');
  const envBlock = config.slice(config.indexOf('const Env = z.object({'), config.indexOf('});', config.indexOf('const Env = z.object({')));
  const names = new Set([...envBlock.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]));
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(path.join(repoRoot, 'src/server')).filter((f) => f.endsWith('.ts'))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]);
  }
  return [...names].sort();
}

describe('the image files', () => {
  it('.env.example names every configuration name the server reads, each under a comment', () => {
    const lines = read('.env.example').split('\n');
    const names = configurationNames();
    expect(names).toContain('SECRETS_KEY');
    expect(names).toContain('BOT_HTTP_ALLOWED_HOSTS');
    const missing = names.filter((name) => {
      const at = lines.findIndex((l) => new RegExp(`^(# )?${name}=`).test(l));
      // The line above is a comment that explains it (or another name of the same comment).
      return at < 1 || !lines[at - 1].startsWith('#');
    });
    expect(missing).toEqual([]);
  });

  it('compose.yaml starts the server on a healthy PostgreSQL 16, read-only, with a files volume and /tmp in memory', () => {
    const compose = parse(read('compose.yaml')) as {
      services: Record<string, { image?: string; healthcheck?: { test: string[] }; depends_on?: Record<string, { condition: string }>; read_only?: boolean; tmpfs?: string[]; volumes?: string[]; environment?: Record<string, string> }>;
    };
    const { db, server } = compose.services;
    expect(db.image).toBe('postgres:16');
    expect(db.healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(server.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(server.read_only).toBe(true);
    expect(server.tmpfs).toContain('/tmp');
    expect(server.volumes).toContain(`files:${server.environment?.PARLEY_DATA_DIR}`);
  });

  it('the Dockerfile installs production dependencies only, runs as a non-root user and checks /readyz with node', () => {
    const dockerfile = read('Dockerfile');
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-slim$/m);
    expect(runtime).toContain('npm ci --omit=dev');
    expect(runtime).toMatch(/^USER (?!root)\w+$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n?.*CMD \["node", .*\/readyz/m);
    expect(runtime.split('\n').filter((line) => !line.startsWith('#') && line.includes('curl'))).toEqual([]);
    expect(runtime).toContain('ENTRYPOINT ["node", "dist/server/server.js"]');
  });
});
