/**
 * Real server processes for crash tests and benchmarks: `src/server/index.ts` run by node itself with tsx's
 * loader (`node --import tsx`), on 127.0.0.1 and a free port, so the child's pid IS the server. (The `tsx` CLI
 * runs the script in a grandchild: a SIGKILL to the CLI leaves the real server running as an orphan, so a
 * "crash" test would not crash anything.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { until } from './until';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
}

/** A port free on 127.0.0.1 now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const started = new Set<ChildProcess>();
const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

/** Whether the server answers /readyz. */
export const answers = (p: ServerProcess) => fetch(`${p.baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);

/**
 * Starts a server with `env` on top of this process's environment (LOG_LEVEL silent, a data dir of its own,
 * HOST 127.0.0.1 and a free PORT unless given) and command-line `args` (`--no-jobs`, `--jobs-only`), and waits
 * until it answers /readyz.
 */
export async function startServerProcess(env: NodeJS.ProcessEnv, opts: { readyMs?: number; args?: string[] } = {}): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts', ...(opts.args ?? [])], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent', PARLEY_DATA_DIR: `/tmp/parley-proc-${randomUUID()}`, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: 'ignore',
  });
  started.add(child);
  const p = { child, port, baseUrl: `http://127.0.0.1:${port}` };
  await until(async () => {
    if (!alive(child)) throw new Error(`the server process exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    return answers(p);
  }, opts.readyMs ?? 90_000);
  return p;
}

/** kill -9: the process ends at once, with its connections, claims and in-flight requests. */
export function killHard(p: ServerProcess): Promise<void> {
  if (!alive(p.child)) return Promise.resolve();
  return new Promise((resolve) => {
    p.child.once('exit', () => resolve());
    p.child.kill('SIGKILL');
  });
}

/** Kills every server this process started that still runs (afterAll / finally). */
export async function killAllServerProcesses(): Promise<void> {
  await Promise.all([...started].map((child) => killHard({ child, port: 0, baseUrl: '' })));
  started.clear();
}
