/** The pg-boss workers of each registered job name: they fetch, validate, run the handler, and fail what failed. */
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Config } from '../config';
import type { JobInfo, RegisteredHandler, ValidJob } from './handler-types';
import type { JobDefinition } from './names';

/** Logs and fails (for a retry, or for good after the retry limit) the jobs of a batch that failed. */
export async function failJobs(b: PgBoss, log: FastifyBaseLogger, name: string, failed: Map<string, unknown>, jobs: JobInfo[]) {
  for (const [id, err] of failed) {
    log.warn({ err, job: name, jobId: id, retryCount: jobs.find((j) => j.id === id)?.retryCount }, 'job failed');
    await b.fail(name, id, err instanceof Error ? { message: err.message } : { value: String(err) });
  }
}

async function ensureQueue(b: PgBoss, name: string) {
  if (await b.getQueue(name)) return;
  try {
    await b.createQueue(name, { name, policy: 'short' });
  } catch (err) {
    // Another process created it at the same moment.
    if (!(await b.getQueue(name))) throw err;
  }
}

/** The fetched jobs whose payload matches the job's schema. */
function validJobs(log: FastifyBaseLogger, name: string, def: JobDefinition, jobs: PgBoss.JobWithMetadata<never>[]): ValidJob[] {
  const infos: ValidJob[] = [];
  for (const j of jobs) {
    const data = def.payload.safeParse(j.data);
    if (!data.success) {
      // Queued by a build whose payload differed: running it again cannot fix it, so it is not retried.
      log.error({ job: name, jobId: j.id, issues: data.error.issues.slice(0, 5) }, 'job payload does not match its schema; dropped');
      continue;
    }
    infos.push({ data: data.data as never, job: { id: j.id, name, retryCount: j.retryCount } });
  }
  return infos;
}

export interface WorkerDeps {
  config: Config;
  log: FastifyBaseLogger;
  known(name: string): JobDefinition;
  handlers: Map<string, RegisteredHandler>;
}

export function createWorkers(d: WorkerDeps) {
  const workers = new Map<string, string[]>();

  async function runFetch(b: PgBoss, name: string, def: JobDefinition, jobs: PgBoss.JobWithMetadata<never>[]) {
    const handler = d.handlers.get(name)!;
    const infos = validJobs(d.log, name, def, jobs);
    if (infos.length === 0) return;
    if (handler.batch) {
      const failed = await handler.batch(infos);
      // The failed ones are retried alone; pg-boss then completes the rest (it completes only active jobs).
      await failJobs(b, d.log, name, failed ?? new Map(), infos.map((i) => i.job));
      return;
    }
    const [{ data, job }] = infos;
    await handler.one!(data, job);
  }

  async function startWorker(b: PgBoss, name: string, def: JobDefinition, batchSize: number): Promise<string> {
    let workerId = '';
    workerId = await b.work<never>(
      name,
      { pollingIntervalSeconds: d.config.jobs.pollingIntervalSeconds, batchSize, includeMetadata: true },
      async (jobs) => {
        try {
          await runFetch(b, name, def, jobs);
        } catch (err) {
          d.log.warn({ err, job: name, jobIds: jobs.map((j) => j.id) }, 'job failed');
          throw err;
        } finally {
          // A full fetch means more are probably waiting: fetch again at once instead of after the polling
          // interval (pg-boss waits for the interval after every fetch unless the worker was notified).
          if (jobs.length === batchSize && workerId) b.notifyWorker(workerId);
        }
      },
    );
    return workerId;
  }

  return {
    /** Starts the workers of a registered name once (its definition's concurrency of them). */
    async start(b: PgBoss, name: string) {
      if (workers.has(name)) return;
      workers.set(name, []);
      const def = d.known(name);
      await ensureQueue(b, name);
      const ids = workers.get(name)!;
      const batchSize = Math.max(1, def.batchSize ?? 1);
      for (let i = 0; i < Math.max(1, def.concurrency ?? 1); i++) ids.push(await startWorker(b, name, def, batchSize));
    },
    /** Wakes the workers of a name (or of all) now instead of at their next poll. */
    notify(b: PgBoss | undefined, name?: string) {
      if (!b) return;
      for (const [n, ids] of workers) if (!name || n === name) for (const id of ids) b.notifyWorker(id);
    },
    /** Forgets the workers of a boss that failed to start. */
    clear() {
      workers.clear();
    },
  };
}
