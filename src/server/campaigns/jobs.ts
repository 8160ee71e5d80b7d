/** Campaigns' durable job (its handler is registered at the composition root). */
import { z } from 'zod';
import { defineJob } from '../jobs/names';

export const campaignJobs = {
  /**
   * Starts scheduled campaigns and resumes paused ones whose time has come. Queued for each such time
   * (startAfter); each run claims every due campaign once across processes.
   */
  'campaigns.due': defineJob(z.object({}), { retryLimit: 5, retryDelaySeconds: 2 }),
};

declare module '../jobs/names' {
  interface JobRegistry {
    'campaigns.due': (typeof campaignJobs)['campaigns.due'];
  }
}
