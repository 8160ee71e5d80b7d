/** Contact imports' durable job (its handler is registered at the composition root). */
import { z } from 'zod';
import { defineJob } from '../jobs/names';

const uuid = z.uuid();

export const importJobs = {
  /** One contact import (run-import.ts); resumes after the rows already committed. */
  'contacts.import': defineJob(z.object({ importId: uuid, workspaceId: uuid }), {
    retryLimit: 3,
    retryDelaySeconds: 2,
    expireInSeconds: 3600,
    concurrency: 1,
  }),
};

declare module '../jobs/names' {
  interface JobRegistry {
    'contacts.import': (typeof importJobs)['contacts.import'];
  }
}
