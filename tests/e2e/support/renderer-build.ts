/**
 * The built renderer the desktop suite loads (out/renderer, `npm run build`, as a packaged app ships it). The
 * global setup builds it when it is missing or older than any of its sources, so a run never tests yesterday's
 * page; CI builds right before the suite, so there it is fresh and nothing is rebuilt.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** out/renderer: what src/main/index.ts hands to resolveRendererEntry in a packaged app. */
export const rendererDir = path.join(root, 'out', 'renderer');
const entry = path.join(rendererDir, 'index.html');

/** What the renderer build is made of (electron.vite.config.ts: the renderer, shared code, build plugins, deps). */
const sources = ['src/renderer', 'src/shared', 'scripts/build', 'electron.vite.config.ts', 'package.json', 'package-lock.json'].map((p) => path.join(root, p));

function newestChange(target: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, name)));
  return newest;
}

/** Why out/renderer must be built again, or null when it is newer than every source. */
export function rendererBuildOutdated(): string | null {
  if (!fs.existsSync(entry)) return 'out/renderer is missing';
  const built = fs.statSync(entry).mtimeMs;
  const changed = sources.find((source) => newestChange(source) > built);
  return changed ? `${path.relative(root, changed)} changed after the last build` : null;
}

/** Builds out/renderer (`npm run build`) when it is missing or stale. */
export function ensureRendererBuild(log: (line: string) => void = () => undefined): void {
  const reason = rendererBuildOutdated();
  if (!reason) return;
  log(`building the renderer for the desktop suite (${reason})`);
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`npm run build failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  if (rendererBuildOutdated()) throw new Error(`npm run build left out/renderer outdated: ${rendererBuildOutdated()}`);
}
