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
 * State lives in `$TMPDIR/parley-auth-emulator-<uid>-<port>/` (see auth-emulator-state.ts for the lock, the
 * leases and the watchdog): also `emulator.log` (the CLI's output), `firebase.json` (non-default ports only)
 * and the CLI's `firebase-debug.log`.
 *
 * Used by `tests/support/global-setup.ts` (and meant for `scripts/start.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  addLease,
  type EmulatorState,
  leasesDirOf,
  liveLeases,
  ownLeases,
  readState,
  removeLease,
  stateDirFor,
  stateFileOf,
  WATCHDOG,
  withLock,
} from './auth-emulator-state';
import { groupAlive, killGroup, sleep } from './process-group';
import { tailFile } from './tail-file';

export const DEFAULT_AUTH_EMULATOR_PORT = 9099;
export const DEFAULT_PROJECT_ID = 'demo-parley';
/** The emulator listens on IPv4 loopback only (see firebase.json); `localhost` may resolve to ::1 first. */
export const AUTH_EMULATOR_HOSTNAME = '127.0.0.1';

const START_TIMEOUT_MS = 60_000;
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

// ---------------------------------------------------------------------------------------------------------

/** One call's settings: where the emulator's state lives, its port and project, how long to wait, whom to tell. */
interface Run {
  dir: string;
  port: number;
  projectId: string;
  timeoutMs: number;
  log: (line: string) => void;
}

const whereOf = (port: number) => `${AUTH_EMULATOR_HOSTNAME}:${port}`;

/** An emulator already answering on the port: joined (Parley started it) or reused as is; null when nothing answers. */
async function joinRunning({ dir, port, projectId, timeoutMs, log }: Run): Promise<AuthEmulatorHandle | null> {
  const where = whereOf(port);
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
  return null;
}

/** The repo's firebase.json, or (another port) a copy of it in the state directory naming that port. */
function emulatorConfig(dir: string, port: number): string {
  if (port === DEFAULT_AUTH_EMULATOR_PORT) return repoFirebaseJson;
  const config = JSON.parse(readFileSync(repoFirebaseJson, 'utf8')) as {
    emulators: { auth: { host?: string; port?: number } };
  };
  config.emulators.auth = { ...config.emulators.auth, host: AUTH_EMULATOR_HOSTNAME, port };
  const configPath = path.join(dir, 'firebase.json');
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return configPath;
}

/**
 * The CLI in its own process group, its output going to a file, not a pipe: the emulator may outlive this
 * process (other lease holders), and writing to a pipe nobody reads any more would break it.
 */
function spawnEmulator(dir: string, args: string[], logFile: string): ChildProcess {
  const logFd = openSync(logFile, 'w');
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
  return child;
}

type ExitInfo = { code: number | null; signal: NodeJS.Signals | null; error?: Error };

/** Resolves when the child exits or cannot be run; `info()` says how. */
function watchExit(child: ChildProcess): { exited: Promise<void>; info: () => ExitInfo | undefined } {
  let exitInfo: ExitInfo | undefined;
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
  return { exited, info: () => exitInfo };
}

/** What the emulator has printed so far: its last lines, whether it said it is ready, its hub's port. */
function watchOutput(logFile: string, log: (line: string) => void) {
  const seen = { output: [] as string[], sawReady: false, hubPort: undefined as number | undefined };
  const tail = tailFile(logFile, (line) => {
    seen.output.push(line);
    if (seen.output.length > OUTPUT_LINES_KEPT) seen.output.shift();
    if (line.includes(READY_BANNER)) seen.sawReady = true;
    const hub = /Emulator Hub host: \S+ port: (\d+)/.exec(line);
    if (hub) seen.hubPort = Number(hub[1]);
    log(line);
  });
  return { seen, tail };
}

/** Waits until our emulator has said it is ready and answers HTTP; `fail` for an early exit or the deadline. */
async function waitUntilReady(
  port: number,
  startedAt: number,
  timeoutMs: number,
  watched: ReturnType<typeof watchOutput>,
  exitInfo: () => ExitInfo | undefined,
  fail: (message: string) => Promise<never>,
): Promise<void> {
  const { seen, tail } = watched;
  let readySeenAt: number | undefined;
  for (;;) {
    tail.poll();
    const exit = exitInfo();
    if (exit) {
      await fail(
        exit.error
          ? `Could not run the firebase CLI: ${exit.error.message}`
          : `Firebase Auth emulator exited before it was ready (code ${exit.code}, signal ${exit.signal}).`,
      );
    }
    if (seen.sawReady && (await probe(port)) === 'auth-emulator') {
      // The hub port (needed to let others join) is printed right after the banner.
      readySeenAt ??= Date.now();
      if (seen.hubPort !== undefined || Date.now() - readySeenAt > 2_000) return;
    }
    if (Date.now() > startedAt + timeoutMs) {
      await fail(`Firebase Auth emulator did not answer at http://${whereOf(port)}/ within ${Math.round(timeoutMs / 1000)} s.`);
    }
    await sleep(250);
  }
}

/** Nothing answers on the port: forget any leftover state (a crashed emulator) and start one. */
async function launch(run: Run): Promise<AuthEmulatorHandle> {
  const { dir, port, projectId, timeoutMs, log } = run;
  rmSync(stateFileOf(dir), { force: true });
  rmSync(leasesDirOf(dir), { recursive: true, force: true });
  const lease = addLease(dir); // before the spawn, so the watchdog sees a holder from its first look

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
    emulatorConfig(dir, port),
  ];
  const command = `${nodeBinary()} ${args.slice(2).join(' ')}`;
  const logFile = path.join(dir, 'emulator.log');
  const startedAt = Date.now();
  const child = spawnEmulator(dir, args, logFile);
  const watched = watchOutput(logFile, log);
  const { exited, info } = watchExit(child);

  const describe = () => {
    watched.tail.poll();
    return (
      `Command: ${command}\n` +
      `Last output lines (full output: ${logFile}):\n` +
      (watched.seen.output.slice(-OUTPUT_LINES_IN_ERRORS).join('\n') || '(none)')
    );
  };
  const fail = async (message: string): Promise<never> => {
    const details = describe();
    if (child.pid !== undefined && !info()) await killGroup(child.pid, { process: child, exited });
    watched.tail.stop();
    removeLease(dir, lease);
    rmSync(stateFileOf(dir), { force: true });
    throw new Error(`${message}\n${details}`);
  };
  await waitUntilReady(port, startedAt, timeoutMs, watched, info, fail);

  const newState: EmulatorState = {
    pid: child.pid!,
    port,
    projectId,
    hubPort: watched.seen.hubPort,
    startedAt: new Date(startedAt).toISOString(),
  };
  writeFileSync(stateFileOf(dir), JSON.stringify(newState, null, 2));
  log(`auth emulator ready at ${whereOf(port)} after ${Date.now() - startedAt} ms (pid ${child.pid})`);
  return leasedHandle({ ...run, lease, reused: false, child: { process: child, exited, stopTail: watched.tail.stop } });
}

export async function startAuthEmulator(opts: StartAuthEmulatorOptions = {}): Promise<AuthEmulatorHandle> {
  const port = opts.port ?? DEFAULT_AUTH_EMULATOR_PORT;
  const run: Run = {
    dir: stateDirFor(port),
    port,
    projectId: opts.projectId ?? DEFAULT_PROJECT_ID,
    timeoutMs: opts.timeoutMs ?? START_TIMEOUT_MS,
    log: opts.log ?? (() => {}),
  };
  // Parallel callers wait here while the first one starts the emulator, then join it.
  return withLock(run.dir, run.timeoutMs + 30_000, async () => (await joinRunning(run)) ?? launch(run));
}
