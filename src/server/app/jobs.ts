/**
 * Every durable job of the product: the definitions each part declares (their `jobs.ts`) assembled into one map,
 * and each job's handler registered by name. A job without a handler here does not compile, and the queue
 * refuses to start while a listed job has none. Jobs with a batchSize get a batch handler (one call per fetch),
 * the others one call per job.
 */
import type { JobName, ProductJobs } from '../jobs/names';
import type { BatchHandlerOf, HandlerOf, JobQueue } from '../jobs/queue';
import type { Services } from '../http/services';
import type { EventRetention } from '../realtime/retention';
import { realtimeJobs } from '../realtime/jobs';
import { whatsappJobs } from '../whatsapp/jobs';
import { messagingJobs } from '../messaging/jobs';
import { importJobs } from '../imports/jobs';
import { campaignJobs } from '../campaigns/jobs';
import { botJobs } from '../bots/jobs';

export const jobDefinitions: ProductJobs = {
  ...whatsappJobs,
  ...realtimeJobs,
  ...importJobs,
  ...messagingJobs,
  ...campaignJobs,
  ...botJobs,
};

type BatchJobName = 'whatsapp.webhook';

export function registerJobHandlers(jobs: JobQueue, services: Services, retention: EventRetention): void {
  const batchHandlers: { [N in BatchJobName]: BatchHandlerOf<N> } = {
    'whatsapp.webhook': (batch) => services.inbound.processWebhookBatch(batch),
  };
  const handlers: { [N in Exclude<JobName, BatchJobName>]: HandlerOf<N> } = {
    'whatsapp.mark-read': (data) => services.channel.markRead(data),
    'events.prune': () => retention.prune(),
    'contacts.import': (data, job) => services.imports.runJob(data, job),
    'messages.send': (data) => services.outbound.runJob(data),
    'bots.turn': (data) => services.bots.onInbound(data),
    'bots.timeout': (data) => services.bots.onTimeout(data),
    'bots.assigned': (data) => services.bots.onAssigned(data),
    'bots.deliver': (data, job) => services.bots.deliver(data, job),
    'bots.call': (data) => services.bots.onCall(data),
    'bots.email': (data) => services.bots.email(data),
    'campaigns.due': () => services.campaigns.runDue(),
  };
  for (const name of Object.keys(batchHandlers) as BatchJobName[]) jobs.registerBatch(name, batchHandlers[name]);
  for (const name of Object.keys(handlers) as Exclude<JobName, BatchJobName>[]) {
    jobs.register(name, handlers[name] as HandlerOf<typeof name>);
  }
}
