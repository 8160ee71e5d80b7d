/**
 * The one place where every durable job gets its handler. The map is typed by src/server/jobs/names.ts: a job
 * listed there without a handler here does not compile (and the queue still refuses to start without one).
 */
import type { Services } from '../services';
import type { JobName } from './names';
import type { HandlerOf, JobQueue } from './queue';

export function registerJobHandlers(jobs: JobQueue, services: Services): void {
  const handlers: { [N in JobName]: HandlerOf<N> } = {
    'whatsapp.webhook': (data, job) => services.channel.processWebhook(data.payload, data.receivedAt, job.retryCount),
    'whatsapp.mark-read': (data) => services.channel.markRead(data),
    'contacts.import': (data, job) => services.imports.runJob(data, job),
    'messages.send': (data) => services.outbound.runJob(data),
  };
  for (const name of Object.keys(handlers) as JobName[]) jobs.register(name, handlers[name] as HandlerOf<typeof name>);
}
