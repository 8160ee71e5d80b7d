/**
 * Pacing per WhatsApp number: a token bucket whose state is a row of `send_pacers`, so every server process on
 * the database shares it (PostgreSQL and PGlite alike). It runs at the number's `throughputPerSecond` (Meta's
 * tier, 80 by default, up to 1,000).
 *
 * Each send reserves the next slot in one statement and sleeps until it (no polling, no lost wake-ups). The bucket
 * holds half a second of sends: Meta's own bucket holds a second, so a send that reaches Meta up to half a second
 * later or earlier than its slot (network and scheduling jitter) still finds a token there. A 130429 answer pushes
 * the number's next slot `backoffSeconds` away for every process.
 */
import type { Database } from '../db/client';
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
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createPacer(database: Database, opts: PacerOptions = {}) {
  const backoffSeconds = opts.backoffSeconds ?? 1;
  const burstSeconds = opts.burstSeconds ?? 0.5;
  return {
    /** Waits for the number's next send slot; answers how long it waited (ms). */
    async take(account: PacedAccount): Promise<number> {
      const interval = 1 / account.throughputPerSecond;
      // GCRA burst tolerance: (sends in the burst - 1) intervals.
      const tolerance = Math.max(0, Math.floor(account.throughputPerSecond * burstSeconds) - 1) * interval;
      const { slot, now } = await pacers.reserve(database.db, account.workspaceId, account.id, interval);
      const waitMs = (slot - tolerance - now) * 1000;
      if (waitMs > 0) await sleep(waitMs);
      return Math.max(0, waitMs);
    },
    /** Meta answered 130429: nothing more from this number until the back-off has passed. */
    async backOff(account: PacedAccount): Promise<void> {
      await pacers.backOff(database.db, account.workspaceId, account.id, backoffSeconds);
    },
  };
}
export type Pacer = ReturnType<typeof createPacer>;
