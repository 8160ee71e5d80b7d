// A process group and the processes in it: alive or not, signalled as a whole, stopped with a grace period.
import type { ChildProcess } from 'node:child_process';

/** How long a group gets between SIGTERM and SIGKILL. */
export const STOP_GRACE_MS = 5_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function groupAlive(pgid: number): boolean {
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
export async function killGroup(pgid: number, own?: { process: ChildProcess; exited: Promise<void> }): Promise<void> {
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
