/**
 * Starts (or reuses) the Firebase Authentication emulator from the firebase-tools devDependency.
 *
 * - Fully offline: a `demo-` project id needs no credentials, and the Auth emulator is plain Node (no Java).
 * - One emulator per port, shared: callers (test runs, `npm start`) take a lease on it. Whoever finds nothing
 *   on the port starts it (under a lock, so parallel callers never start two); the others join. `stop()`
 *   gives the lease back, and the last holder to leave stops the emulator, so one test run's teardown never
 *   pulls the emulator from under another run that is still going.
 * - An emulator Parley did not start (a developer's own `firebase emulators:start`) is reused as is:
 *   `stop()` leaves it alone.
 * - The emulator runs in its own process group; stopping it signals the whole group (SIGTERM, then SIGKILL)
 *   and resolves once every process of the group has exited. A watchdog preloaded into the emulator stops
 *   it when no lease holder is alive any more (a crashed or `kill -9`ed test run), so nothing is left behind.
 *
 * State lives in `$TMPDIR/parley-auth-emulator-<uid>-<port>/`: `emulator.json` (pid, hub port),
 * `leases/<pid>-<id>`, `lock/` (mkdir lock), `emulator.log` (the CLI's output), `firebase.json` (non-default
 * ports only) and the CLI's `firebase-debug.log`.
 *
 * Used by `tests/support/global-setup.ts` (and meant for `scripts/start.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  rmSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_AUTH_EMULATOR_PORT = 9099;
export const DEFAULT_PROJECT_ID = 'demo-parley';
/** The emulator listens on IPv4 loopback only (see firebase.json); `localhost` may resolve to ::1 first. */
export const AUTH_EMULATOR_HOSTNAME = '127.0.0.1';

const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const OUTPUT_LINES_KEPT = 200;
const OUTPUT_LINES_IN_ERRORS = 40;
/** Printed by firebase-tools once every requested emulator listens. */
const READY_BANNER = 'All emulators ready';

const repoFirebaseJson = fileURLToPath(new URL('./firebase.json', import.meta.url));

export interface StartAuthEmulatorOptions {
  /** Port of the Auth emulator (default 9099, the port in firebase.json). */
  port?: number;
  /** Firebase project id (default `demo-parley`; keep the `demo-` prefix so nothing is contacted). */
  projectId?: string;
  /** Receives progress messages and, when this call starts the emulator, every line it prints. */
  log?: (line: string) => void;
  /** How long to wait for the emulator to answer (default 60 s). */
  timeoutMs?: number;
}

export interface AuthEmulatorHandle {
  /** `127.0.0.1:PORT`, the value for `FIREBASE_AUTH_EMULATOR_HOST`. */
  host: string;
  port: number;
  projectId: string;
  /** False when this call started the emulator; true when one was already running. */
  reused: boolean;
  /**
   * Gives this caller's lease back. The emulator is stopped (its whole process group) when no other Parley
   * process still uses it; one that Parley did not start is never stopped. Resolves when done. Idempotent.
   */
  stop(): Promise<void>;
}

interface EmulatorState {
  pid: number;
  port: number;
  projectId: string;
  hubPort?: number;
  startedAt: string;
}

// ---------------------------------------------------------------------------------------------------------
// small helpers

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function groupAlive(pgid: number): boolean {
  if (process.platform === 'win32') return pidAlive(pgid);
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * SIGTERM to the group (firebase-tools' clean shutdown; it ignores it while still starting up), SIGKILL after a
 * grace period; resolves once no process of the group is left (and, for our own child, once it is reaped).
 */
async function killGroup(pgid: number, own?: { process: ChildProcess; exited: Promise<void> }): Promise<void> {
  own?.process.ref(); // an unref'd child would not keep this process alive long enough to see it exit
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pgid)) {
    signalGroup(pgid, 'SIGKILL');
    while (groupAlive(pgid)) await sleep(50);
  }
  if (own) await Promise.race([own.exited, sleep(STOP_GRACE_MS)]);
}

async function getJson(url: string, timeoutMs = 2_000): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  return JSON.parse(text) as unknown;
}

type ProbeResult = 'auth-emulator' | 'other' | 'nothing';

/** GET http://127.0.0.1:PORT/ : the Auth emulator answers `{ authEmulator: { ready: true, ... } }`. */
async function probe(port: number): Promise<ProbeResult> {
  let res: Response;
  try {
    res = await fetch(`http://${AUTH_EMULATOR_HOSTNAME}:${port}/`, { signal: AbortSignal.timeout(2_000) });
  } catch {
    return 'nothing';
  }
  try {
    const body = JSON.parse(await res.text()) as { authEmulator?: unknown } | null;
    return body && typeof body === 'object' && 'authEmulator' in body ? 'auth-emulator' : 'other';
  } catch {
    return 'other';
  }
}

/** Asks the emulator hub of a Parley-started emulator whether it is that process and serves auth on `port`. */
async function hubConfirms(state: EmulatorState, port: number): Promise<boolean> {
  if (!state.hubPort) return false;
  try {
    const hub = (await getJson(`http://${AUTH_EMULATOR_HOSTNAME}:${state.hubPort}/`)) as { pid?: number };
    if (hub.pid !== state.pid) return false;
    const emulators = (await getJson(`http://${AUTH_EMULATOR_HOSTNAME}:${state.hubPort}/emulators`)) as {
      auth?: { port?: number };
    };
    return emulators.auth?.port === port;
  } catch {
    return false;
  }
}

function firebaseCliScript(): string {
  const require = createRequire(import.meta.url);
  const pkgJsonPath = require.resolve('firebase-tools/package.json');
  const pkg = JSON.parse(readFileSync(pkgJsonPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.firebase;
  if (!bin) throw new Error(`firebase-tools at ${pkgJsonPath} declares no "firebase" binary`);
  return path.resolve(path.dirname(pkgJsonPath), bin);
}

/** A Node binary to run the CLI with (not Electron's, should this ever run inside it). */
function nodeBinary(): string {
  return process.versions.electron ? 'node' : process.execPath;
}

// ---------------------------------------------------------------------------------------------------------
// state directory, lock and leases

function stateDirFor(port: number): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(tmpdir(), `parley-auth-emulator-${uid}-${port}`);
}

const lockDirOf = (dir: string) => path.join(dir, 'lock');
const leasesDirOf = (dir: string) => path.join(dir, 'leases');
const stateFileOf = (dir: string) => path.join(dir, 'emulator.json');

function readState(dir: string): EmulatorState | undefined {
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
async function withLock<T>(dir: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
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

function addLease(dir: string): string {
  mkdirSync(leasesDirOf(dir), { recursive: true });
  const name = `${process.pid}-${randomUUID().slice(0, 8)}`;
  writeFileSync(path.join(leasesDirOf(dir), name), '');
  return name;
}

function removeLease(dir: string, name: string): void {
  rmSync(path.join(leasesDirOf(dir), name), { force: true });
}

/** Leases whose process is alive; the files of dead holders are removed. */
function liveLeases(dir: string): string[] {
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
const ownLeases = new Map<string, string>(); // lease name -> state dir
process.on('exit', () => {
  for (const [name, dir] of ownLeases) removeLease(dir, name);
});

/**
 * Preloaded into the emulator process (`node --import data:...`). Once a second: when no lease holder is
 * alive any more, it takes the lock, shuts the emulator down (SIGTERM is firebase-tools' clean shutdown;
 * SIGKILL if that hangs) and removes the state directory on exit.
 */
const WATCHDOG = `
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

function childEnv(stateDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PARLEY_AUTH_EMULATOR_STATE_DIR: stateDir,
    // firebase-tools: update-notifier-cjs is off with NO_UPDATE_NOTIFIER (and in CI); the "message of the
    // day" fetch (fetchMOTD) is skipped only when CI is set. Usage analytics are sent only after an explicit
    // opt-in at `firebase login` (configstore "usage"); there is no env switch for them.
    NO_UPDATE_NOTIFIER: '1',
    CI: process.env.CI || 'true',
  };
  // An inherited --inspect/--require from a debugger or test runner must not leak into the emulator.
  delete env.NODE_OPTIONS;
  // The emulator itself must not think it should talk to another emulator.
  delete env.FIREBASE_AUTH_EMULATOR_HOST;
  return env;
}

// ---------------------------------------------------------------------------------------------------------
// handles

function foreignHandle(port: number, projectId: string): AuthEmulatorHandle {
  return {
    host: `${AUTH_EMULATOR_HOSTNAME}:${port}`,
    port,
    projectId,
    reused: true,
    stop: async () => {},
  };
}

function leasedHandle(args: {
  dir: string;
  port: number;
  projectId: string;
  lease: string;
  reused: boolean;
  timeoutMs: number;
  child?: { process: ChildProcess; exited: Promise<void>; stopTail: () => void };
  log: (line: string) => void;
}): AuthEmulatorHandle {
  const { dir, port, lease, child, log } = args;
  ownLeases.set(lease, dir);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= withLock(dir, args.timeoutMs + 30_000, async () => {
      removeLease(dir, lease);
      ownLeases.delete(lease);
      const others = liveLeases(dir);
      if (others.length > 0) {
        log(`auth emulator at ${AUTH_EMULATOR_HOSTNAME}:${port} left running for ${others.length} other user(s)`);
        return;
      }
      const state = readState(dir);
      const ownChildRunning =
        child !== undefined && child.process.exitCode === null && child.process.signalCode === null;
      if (ownChildRunning) {
        await killGroup(child.process.pid!, child);
      } else if (state && groupAlive(state.pid) && (await hubConfirms(state, port))) {
        await killGroup(state.pid);
      }
      // (Otherwise nothing of ours is running, or it cannot be told apart from an unrelated process that got
      // its pid: then the emulator's own watchdog, seeing no lease holders, shuts it down.)
      rmSync(stateFileOf(dir), { force: true });
      rmSync(path.join(dir, 'emulator.log'), { force: true });
      rmSync(path.join(dir, 'firebase.json'), { force: true });
      rmSync(path.join(dir, 'firebase-debug.log'), { force: true });
      rmSync(leasesDirOf(dir), { recursive: true, force: true });
      log(`auth emulator at ${AUTH_EMULATOR_HOSTNAME}:${port} stopped`);
    }).finally(() => child?.stopTail()));
  return {
    host: `${AUTH_EMULATOR_HOSTNAME}:${port}`,
    port,
    projectId: args.projectId,
    reused: args.reused,
    stop,
  };
}

/** Follows a growing file, calling onLine for each complete line. */
function tailFile(file: string, onLine: (line: string) => void): { poll: () => void; stop: () => void } {
  let offset = 0;
  let partial = '';
  const buf = Buffer.alloc(64 * 1024);
  const poll = () => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return;
    }
    try {
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, offset);
        if (n <= 0) break;
        offset += n;
        const lines = (partial + buf.subarray(0, n).toString('utf8')).split(/\r?\n/);
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) onLine(line);
      }
    } finally {
      closeSync(fd);
    }
  };
  const timer = setInterval(poll, 250);
  timer.unref();
  return { poll, stop: () => (poll(), clearInterval(timer)) };
}

// ---------------------------------------------------------------------------------------------------------

export async function startAuthEmulator(opts: StartAuthEmulatorOptions = {}): Promise<AuthEmulatorHandle> {
  const port = opts.port ?? DEFAULT_AUTH_EMULATOR_PORT;
  const projectId = opts.projectId ?? DEFAULT_PROJECT_ID;
  const timeoutMs = opts.timeoutMs ?? START_TIMEOUT_MS;
  const log = opts.log ?? (() => {});
  const dir = stateDirFor(port);
  const where = `${AUTH_EMULATOR_HOSTNAME}:${port}`;

  // Parallel callers wait here while the first one starts the emulator, then join it.
  return withLock(dir, timeoutMs + 30_000, async () => {
    const state = readState(dir);
    const found = await probe(port);
    if (found === 'auth-emulator') {
      if (state && (await hubConfirms(state, port))) {
        log(`joining the auth emulator at ${where} (pid ${state.pid}, started by another Parley process)`);
        return leasedHandle({ dir, port, projectId, lease: addLease(dir), reused: true, timeoutMs, log });
      }
      log(`reusing the auth emulator already running at ${where} (not started by Parley; it is left running)`);
      return foreignHandle(port, projectId);
    }
    if (found === 'other') {
      throw new Error(
        `Port ${port} on ${AUTH_EMULATOR_HOSTNAME} answers HTTP but not as the Firebase Auth emulator; ` +
          `free the port or choose another one (PARLEY_TEST_AUTH_PORT for tests).`,
      );
    }

    // Nothing answers: forget any leftover state (a crashed emulator) and start one.
    rmSync(stateFileOf(dir), { force: true });
    rmSync(leasesDirOf(dir), { recursive: true, force: true });
    const lease = addLease(dir); // before the spawn, so the watchdog sees a holder from its first look

    let configPath = repoFirebaseJson;
    if (port !== DEFAULT_AUTH_EMULATOR_PORT) {
      const config = JSON.parse(readFileSync(repoFirebaseJson, 'utf8')) as {
        emulators: { auth: { host?: string; port?: number } };
      };
      config.emulators.auth = { ...config.emulators.auth, host: AUTH_EMULATOR_HOSTNAME, port };
      configPath = path.join(dir, 'firebase.json');
      writeFileSync(configPath, JSON.stringify(config, null, 2));
    }

    const args = [
      '--import',
      `data:text/javascript,${encodeURIComponent(WATCHDOG)}`,
      firebaseCliScript(),
      'emulators:start',
      '--only',
      'auth',
      '--project',
      projectId,
      '--config',
      configPath,
    ];
    const command = `${nodeBinary()} ${args.slice(2).join(' ')}`;

    // Output goes to a file, not a pipe: the emulator may outlive this process (other lease holders), and
    // writing to a pipe nobody reads any more would break it.
    const logFile = path.join(dir, 'emulator.log');
    const logFd = openSync(logFile, 'w');
    const startedAt = Date.now();
    let child: ChildProcess;
    try {
      child = spawn(nodeBinary(), args, {
        cwd: dir, // firebase-debug.log lands here (the CLI deletes it on a clean exit)
        env: childEnv(dir),
        detached: true,
        stdio: ['ignore', logFd, logFd],
      });
    } finally {
      closeSync(logFd);
    }
    // Do not keep this process alive for the emulator's sake (it may be left running for other users).
    child.unref();

    const output: string[] = [];
    let sawReady = false;
    let hubPort: number | undefined;
    const tail = tailFile(logFile, (line) => {
      output.push(line);
      if (output.length > OUTPUT_LINES_KEPT) output.shift();
      if (line.includes(READY_BANNER)) sawReady = true;
      const hub = /Emulator Hub host: \S+ port: (\d+)/.exec(line);
      if (hub) hubPort = Number(hub[1]);
      log(line);
    });

    let exitInfo: { code: number | null; signal: NodeJS.Signals | null; error?: Error } | undefined;
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        exitInfo ??= { code, signal };
        resolve();
      });
      child.once('error', (error) => {
        exitInfo ??= { code: null, signal: null, error };
        resolve();
      });
    });

    const describe = () => {
      tail.poll();
      return (
        `Command: ${command}\n` +
        `Last output lines (full output: ${logFile}):\n` +
        (output.slice(-OUTPUT_LINES_IN_ERRORS).join('\n') || '(none)')
      );
    };
    const fail = async (message: string): Promise<never> => {
      const details = describe();
      if (child.pid !== undefined && !exitInfo) await killGroup(child.pid, { process: child, exited });
      tail.stop();
      removeLease(dir, lease);
      rmSync(stateFileOf(dir), { force: true });
      throw new Error(`${message}\n${details}`);
    };

    // Wait until our emulator has said it is ready and answers HTTP.
    const deadline = startedAt + timeoutMs;
    let readySeenAt: number | undefined;
    for (;;) {
      tail.poll();
      if (exitInfo) {
        await fail(
          exitInfo.error
            ? `Could not run the firebase CLI: ${exitInfo.error.message}`
            : `Firebase Auth emulator exited before it was ready (code ${exitInfo.code}, signal ${exitInfo.signal}).`,
        );
      }
      if (sawReady && (await probe(port)) === 'auth-emulator') {
        // The hub port (needed to let others join) is printed right after the banner.
        readySeenAt ??= Date.now();
        if (hubPort !== undefined || Date.now() - readySeenAt > 2_000) break;
      }
      if (Date.now() > deadline) {
        await fail(`Firebase Auth emulator did not answer at http://${where}/ within ${Math.round(timeoutMs / 1000)} s.`);
      }
      await sleep(250);
    }

    const newState: EmulatorState = {
      pid: child.pid!,
      port,
      projectId,
      hubPort,
      startedAt: new Date(startedAt).toISOString(),
    };
    writeFileSync(stateFileOf(dir), JSON.stringify(newState, null, 2));
    log(`auth emulator ready at ${where} after ${Date.now() - startedAt} ms (pid ${child.pid})`);

    return leasedHandle({
      dir,
      port,
      projectId,
      lease,
      reused: false,
      timeoutMs,
      child: { process: child, exited, stopTail: tail.stop },
      log,
    });
  });
}
