/** What a job handler receives and answers (the queue's workers and the sender's local runs call them alike). */
import type { JobData, JobMap, JobName, ProductJobs } from './names';

export interface JobInfo {
  id: string;
  name: string;
  /** 0 on the first run, 1 on the first retry, ... */
  retryCount: number;
}

export type JobHandler<T = unknown> = (data: T, job: JobInfo) => Promise<void>;
/** The handler of one job of a map, typed by its payload schema. */
export type HandlerOf<N extends JobName<M>, M extends JobMap = ProductJobs> = JobHandler<JobData<N, M>>;

/**
 * Handles up to `batchSize` jobs of one name at once (names.ts). Answers the jobs that failed (id -> error):
 * those are retried alone, the others count as done. Throwing fails (and retries) the whole batch.
 */
export type BatchHandler<T = unknown> = (jobs: { data: T; job: JobInfo }[]) => Promise<Map<string, unknown> | void>;
/** The batch handler of one job of a map, typed by its payload schema. */
export type BatchHandlerOf<N extends JobName<M>, M extends JobMap = ProductJobs> = BatchHandler<JobData<N, M>>;

/** The handler registered for a name: one job at a time, or a batch. */
export interface RegisteredHandler {
  one?: JobHandler<never>;
  batch?: BatchHandler<never>;
}

/** One job of a fetch or of the sender's memory, its payload validated. */
export type ValidJob = { data: never; job: JobInfo };
