/** Waiting for something the code under test does in its own time (a job, a webhook, a process, a stream). */

/** Polls `what` every `pollMs` until it holds; throws `timed out` after `ms`. */
export async function until(what: () => Promise<boolean> | boolean, ms = 90_000, pollMs = 100): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await what()) return;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error('timed out');
}

/** Polls `probe` every 50 ms until it answers something truthy, and answers that; throws after `timeoutMs`. */
export async function untilValue<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
