/**
 * Group commit of keyless sends made outside a transaction: the sends of one moment (e.g. a burst of webhooks)
 * go into pgboss.job in one INSERT, each caller answered once it is committed. One commit per send made the
 * queue, not the work, the limit of a burst.
 */
import type PgBoss from 'pg-boss';

const insertMax = 500;

export interface GroupInsertDeps {
  /** Inserts at once this many at most (PGlite: one, it is one session). */
  maxInFlight: number;
  insert(jobs: PgBoss.JobInsert[]): Promise<void>;
  /** The jobs of these names were committed and can be fetched now. */
  inserted(names: Set<string>): void;
}

export function createGroupInsert(d: GroupInsertDeps): (job: PgBoss.JobInsert) => Promise<void> {
  const pending: { job: PgBoss.JobInsert; done(err?: unknown): void }[] = [];
  let inFlight = 0;
  let scheduled = false;

  function insertBatch() {
    scheduled = false;
    const batch = pending.splice(0, insertMax);
    inFlight++;
    d.insert(batch.map((p) => p.job))
      .then(
        () => {
          for (const p of batch) p.done();
          // A delayed job (runInSenderSeconds, startAfter) cannot be fetched yet: waking the workers would be a wasted poll.
          d.inserted(new Set(batch.filter((p) => p.job.startAfter === undefined).map((p) => p.job.name)));
        },
        (err) => {
          for (const p of batch) p.done(err);
        },
      )
      .finally(() => {
        inFlight--;
        schedule();
      });
    schedule();
  }

  function schedule() {
    if (scheduled || inFlight >= d.maxInFlight || pending.length === 0) return;
    scheduled = true;
    setImmediate(insertBatch);
  }

  return (job) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ job, done: (err) => (err ? reject(err) : resolve()) });
      schedule();
    });
}
