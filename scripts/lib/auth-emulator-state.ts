// Where a shared emulator's state lives and who holds it: `$TMPDIR/parley-auth-emulator-<uid>-<port>/` with
// `emulator.json` (pid, hub port), `leases/<pid>-<id>` (one per caller still using it), `lock/` (a mkdir
// lock), and the watchdog preloaded into the emulator that stops it once no lease holder is alive.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pidAlive, sleep, STOP_GRACE_MS } from './process-group';

export interface EmulatorState {
  pid: number;
  port: number;
  projectId: string;
  hubPort?: number;
  startedAt: string;
}

export function stateDirFor(port: number): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(tmpdir(), `parley-auth-emulator-${uid}-${port}`);
}

const lockDirOf = (dir: string) => path.join(dir, 'lock');
export const leasesDirOf = (dir: string) => path.join(dir, 'leases');
export const stateFileOf = (dir: string) => path.join(dir, 'emulator.json');

export function readState(dir: string): EmulatorState | undefined {
  try {
    return JSON.parse(readFileSync(stateFileOf(dir), 'utf8')) as EmulatorState;
  } catch {
    return undefined;
  }
}

function lockIsStale(lockDir: string): boolean {
  try {
    return !pidAlive(Number(readFileSync(path.join(lockDir, 'pid'), 'utf8')));
  } catch {
    // Created but its pid not written yet, or being removed: stale only when that lasts.
    try {
      return Date.now() - statSync(lockDir).mtimeMs > 10_000;
    } catch {
      return false;
    }
  }
}

/** A cross-process mutex (mkdir is atomic); a lock whose holder died is taken over. */
export async function withLock<T>(dir: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const lockDir = lockDirOf(dir);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    mkdirSync(dir, { recursive: true });
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      // ENOENT: the state directory was removed between the two mkdirs (a stop cleaning up); try again.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (lockIsStale(lockDir)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        let holder = '?';
        try {
          holder = readFileSync(path.join(lockDir, 'pid'), 'utf8');
        } catch {
          // ignore
        }
        throw new Error(`Timed out waiting for ${lockDir} (held by pid ${holder}); remove it if that is stale.`);
      }
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
    try {
      rmdirSync(dir); // only when empty: nothing runs on this port any more
    } catch {
      // not empty, or already gone
    }
  }
}

export function addLease(dir: string): string {
  mkdirSync(leasesDirOf(dir), { recursive: true });
  const name = `${process.pid}-${randomUUID().slice(0, 8)}`;
  writeFileSync(path.join(leasesDirOf(dir), name), '');
  return name;
}

export function removeLease(dir: string, name: string): void {
  rmSync(path.join(leasesDirOf(dir), name), { force: true });
}

/** Leases whose process is alive; the files of dead holders are removed. */
export function liveLeases(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(leasesDirOf(dir));
  } catch {
    return [];
  }
  return names.filter((name) => {
    if (pidAlive(Number.parseInt(name, 10))) return true;
    rmSync(path.join(leasesDirOf(dir), name), { force: true });
    return false;
  });
}

/** Our own leases are dropped when this process exits without stop(); the emulator's watchdog does the rest. */
export const ownLeases = new Map<string, string>(); // lease name -> state dir
process.on('exit', () => {
  for (const [name, dir] of ownLeases) removeLease(dir, name);
});

/**
 * Preloaded into the emulator process (`node --import data:...`). Once a second: when no lease holder is
 * alive any more, it takes the lock, shuts the emulator down (SIGTERM is firebase-tools' clean shutdown;
 * SIGKILL if that hangs) and removes the state directory on exit.
 */
export const WATCHDOG = `
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const dir = process.env.PARLEY_AUTH_EMULATOR_STATE_DIR;
const lock = join(dir, 'lock');
const alive = (pid) => {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
};
const holders = () => {
  try { return readdirSync(join(dir, 'leases')).filter((n) => alive(Number.parseInt(n, 10))).length; }
  catch { return 0; }
};
const lockStale = () => {
  try { return !alive(Number(readFileSync(join(lock, 'pid'), 'utf8'))); }
  catch { try { return Date.now() - statSync(lock).mtimeMs > 10000; } catch { return false; } }
};
const timer = setInterval(() => {
  if (holders() > 0) return;
  try { mkdirSync(lock); } catch {
    if (lockStale()) rmSync(lock, { recursive: true, force: true });
    return;
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  if (holders() > 0) { rmSync(lock, { recursive: true, force: true }); return; }
  clearInterval(timer);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.kill(process.pid, 'SIGTERM');
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), ${STOP_GRACE_MS}).unref();
}, 1000);
timer.unref();
`;
