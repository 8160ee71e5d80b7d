import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { IdentityProvider } from '../identity/identity-provider';
import type { Mailer } from './mailer';
import type { JobQueue } from '../jobs/queue';
import type { Realtime } from '../realtime/stream';
import type { FileStore } from '../storage/file-store';
import type { Metrics } from '../metrics/metrics';

/** What every service may use. */
export interface ServiceDeps {
  config: Config;
  db: Database;
  identity: IdentityProvider;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Durable jobs (src/server/jobs): register handlers while the services are built, send from anywhere. */
  jobs: JobQueue;
  /** Uploaded files on local disk (src/server/storage): put, open, signedUrl for links handed to Meta. */
  files: FileStore;
  /** Live event streams (SSE) and their LISTEN fan-out; services append events with realtime/event-log.ts. */
  realtime: Realtime;
  /** The app's metrics (src/server/metrics): the composition root always gives them; a part built alone may go without. */
  metrics?: Metrics;
}
