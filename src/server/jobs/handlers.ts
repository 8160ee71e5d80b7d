/**
 * The one place where every durable job gets its handler. The maps are typed by src/server/jobs/names.ts: a job
 * listed there without a handler here does not compile (and the queue still refuses to start without one).
 * Jobs with a batchSize get a batch handler (one call per fetch), the others one call per job.
 */
import type { EventRetention } from '../realtime/retention';
import type { Services } from '../services';
import type { JobName } from './names';
import type { BatchHandlerOf, HandlerOf, JobQueue } from './queue';

type BatchJobName = 'whatsapp.webhook';

export function registerJobHandlers(jobs: JobQueue, services: Services, retention: EventRetention): void {
  const batchHandlers: { [N in BatchJobName]: BatchHandlerOf<N> } = {
    'whatsapp.webhook': (batch) => services.channel.processWebhookBatch(batch),
  };
  const handlers: { [N in Exclude<JobName, BatchJobName>]: HandlerOf<N> } = {
    'whatsapp.mark-read': (data) => services.channel.markRead(data),
    'events.prune': () => retention.prune(),
    'contacts.import': (data, job) => services.imports.runJob(data, job),
    'messages.send': (data) => services.outbound.runJob(data),
    // bots (issue 18)
    'bots.turn': (data) => services.bots.onInbound(data),
    'bots.timeout': (data) => services.bots.onTimeout(data),
    'bots.assigned': (data) => services.bots.onAssigned(data),
    'bots.deliver': (data) => services.bots.deliver(data),
    'bots.email': (data) => services.bots.email(data),
    'campaigns.due': () => services.campaigns.runDue(),
  };
  for (const name of Object.keys(batchHandlers) as BatchJobName[]) jobs.registerBatch(name, batchHandlers[name]);
  for (const name of Object.keys(handlers) as Exclude<JobName, BatchJobName>[]) {
    jobs.register(name, handlers[name] as HandlerOf<typeof name>);
  }
}
