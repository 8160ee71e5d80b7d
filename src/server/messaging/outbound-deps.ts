/**
 * What the outbound path uses of the server: the database, a logger and the signing of our own files' links.
 * Narrower than the services' deps (which satisfy it), because messaging sits below the services.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { Metrics } from '../metrics/metrics';

export type OutboundLog = Pick<FastifyBaseLogger, 'warn'>;

export interface OutboundDeps {
  db: Database;
  log: OutboundLog;
  /** Our own stored files: a link to one is handed to Meta as an expiring signed link it can fetch. */
  files: { keyFromUrl(url: string): string | null; signedUrl(key: string, ttlSeconds: number): string };
  /** Counts sends by number and outcome, and the pacer's waits. */
  metrics?: Pick<Metrics, 'messages' | 'pacerWaitSeconds'>;
}
