/**
 * Pacing per WhatsApp number: a token bucket whose state is a row of `send_pacers`, so every server process on
 * the database shares it (PostgreSQL and PGlite alike). It runs at the number's `throughputPerSecond` (Meta's
 * tier, 80 by default, up to 1,000).
 *
 * Each send reserves the next slot in one statement and sleeps until it (no polling, no lost wake-ups). Sends of
 * one process that ask for a slot while its reservation for that number is under way share the next one: one
 * statement reserves their slots together, so a campaign's workers do not queue on the number's row lock. The bucket
 * holds half a second of sends: Meta's own bucket holds a second, so a send that reaches Meta up to half a second
 * later or earlier than its slot (network and scheduling jitter) still finds a token there. A 130429 answer pushes
 * the number's next slot `backoffSeconds` away for every process.
 */
import type { Database } from '../db/client';
import type { Metrics } from '../metrics/metrics';
import * as pacers from '../repositories/send-pacers';

export interface PacedAccount {
  id: string;
  workspaceId: string;
  throughputPerSecond: number;
}

export interface PacerOptions {
  /** How long a 130429 holds the number back (default 1 s: Meta's bucket refills in a second). */
  backoffSeconds?: number;
  /** Seconds of sends the bucket may let out at once (default 0.5). */
  burstSeconds?: number;
  /** Counts each send's wait for its slot. */
  metrics?: Pick<Metrics, 'pacerWaitSeconds'>;
}

export function createPacer(database: Database, opts: PacerOptions = {}) {
  const backoffSeconds = opts.backoffSeconds ?? 1;
  const burstSeconds = opts.burstSeconds ?? 0.5;
  /** Sends of this process waiting for a reservation, by number; `reserving` while one is under way. */
  const waiting = new Map<string, { account: PacedAccount; resolve(wait: number): void; reject(err: unknown): void }[]>();
  const reserving = new Set<string>();

  function reserveWaiting(accountId: string): void {
    const list = waiting.get(accountId);
    if (reserving.has(accountId) || !list?.length) return;
    waiting.delete(accountId);
    reserving.add(accountId);
    // The newest rate of the number among the waiters (a changed setting applies from this reservation on).
    const account = list[list.length - 1].account;
    const interval = 1 / account.throughputPerSecond;
    // GCRA burst tolerance: (sends in the burst - 1) intervals.
    const tolerance = Math.max(0, Math.floor(account.throughputPerSecond * burstSeconds) - 1) * interval;
    pacers
      .reserve(database.db, account.workspaceId, account.id, interval, list.length)
      .then(
        ({ slot, now }) =>
          list.forEach((w, i) => {
            const waitMs = (slot + i * interval - tolerance - now) * 1000;
            if (waitMs > 0) setTimeout(() => w.resolve(waitMs), waitMs);
            else w.resolve(0);
          }),
        (err) => list.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        reserving.delete(accountId);
        reserveWaiting(accountId);
      });
  }

  return {
    /** Waits for the number's next send slot; answers how long it waited (ms). */
    take(account: PacedAccount): Promise<number> {
      return new Promise<number>((resolve, reject) => {
        let list = waiting.get(account.id);
        if (!list) waiting.set(account.id, (list = []));
        list.push({ account, resolve, reject });
        reserveWaiting(account.id);
      }).then((waitMs) => {
        opts.metrics?.pacerWaitSeconds.observe(waitMs / 1000);
        return waitMs;
      });
    },
    /** Meta answered 130429: nothing more from this number until the back-off has passed. */
    async backOff(account: PacedAccount): Promise<void> {
      await pacers.backOff(database.db, account.workspaceId, account.id, backoffSeconds);
    },
  };
}
export type Pacer = ReturnType<typeof createPacer>;
