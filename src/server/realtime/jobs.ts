/** The event log's durable job (its handler is registered at the composition root). */
import { z } from 'zod';
import { defineJob } from '../jobs/names';

export const realtimeJobs = {
  /** Daily pruning of the workspace event log (retention.ts); reschedules itself. */
  'events.prune': defineJob(z.object({}), { retryLimit: 3 }),
};

declare module '../jobs/names' {
  interface JobRegistry {
    'events.prune': (typeof realtimeJobs)['events.prune'];
  }
}
