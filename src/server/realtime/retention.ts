/**
 * Event-log retention: the `events.prune` job deletes workspace events older than EVENTS_RETENTION_DAYS, once
 * a day. It reschedules itself (one queued run at a time, by its singleton key), and every server start queues
 * a run unless one is already waiting, so the schedule survives restarts without a cron process. A client that
 * resumes from a pruned seq is told to reload (`event: reset`, see stream.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { JobName } from '../jobs/names';
import type { JobQueue } from '../jobs/queue';
import { pruneEvents } from '../repositories/event-log';

export const PRUNE_EVENTS_JOB = 'events.prune' satisfies JobName;
const dayMs = 24 * 60 * 60 * 1000;

/** The `events.prune` job's handler (registered in src/server/app/jobs.ts) and the start-up scheduling. */
export function createEventRetention(d: { db: Database; jobs: JobQueue; log: FastifyBaseLogger; retentionDays: number }) {
  const next = (startAfter?: Date) =>
    d.jobs.send(PRUNE_EVENTS_JOB, {}, { singletonKey: PRUNE_EVENTS_JOB, ...(startAfter && { startAfter }) });

  return {
    /** Deletes the events older than the retention, then queues tomorrow's run. */
    async prune(): Promise<void> {
      const before = new Date(Date.now() - d.retentionDays * dayMs);
      const deleted = await pruneEvents(d.db.db, before);
      d.log.info({ deleted, before: before.toISOString() }, 'workspace events pruned');
      await next(new Date(Date.now() + dayMs));
    },
    /** Queues a run now unless one is already waiting (called once the job queue has started). */
    async schedule(): Promise<void> {
      try {
        await next();
      } catch (err) {
        d.log.warn({ err }, 'could not schedule the event-log pruning; the next start tries again');
      }
    },
  };
}
export type EventRetention = ReturnType<typeof createEventRetention>;
