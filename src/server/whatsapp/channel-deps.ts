import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { JobQueue } from '../jobs/queue';

/** What the WhatsApp channel uses (given by the composition root). */
export interface ChannelDeps {
  config: Pick<Config, 'secretsKey'>;
  db: Database;
  log: FastifyBaseLogger;
  jobs: JobQueue;
}
