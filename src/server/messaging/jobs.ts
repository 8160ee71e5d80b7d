/** The outbound path's durable job (its handler is registered at the composition root). */
import { defineJob } from '../jobs/names';
import { OutboundRequest } from './outbound-request';

export const messagingJobs = {
  /**
   * One message through the outbound path (outbound.ts) on behalf of a bot, campaign or the system; idempotent
   * by its key: a retry never sends twice.
   */
  'messages.send': defineJob(OutboundRequest, { retryLimit: 5, retryDelaySeconds: 2, retryBackoff: true, concurrency: 8 }),
};

declare module '../jobs/names' {
  interface JobRegistry {
    'messages.send': (typeof messagingJobs)['messages.send'];
  }
}
