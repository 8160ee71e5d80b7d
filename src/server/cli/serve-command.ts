/**
 * `serve [--no-jobs | --jobs-only]`: migrates (under the migration lock, db/client.ts), listens, and drains
 * in-flight requests on SIGTERM/SIGINT. With NODE_ENV=production it refuses to start without the secrets a
 * business needs (config.ts productionConfigProblems).
 */
import { parseArgs } from 'node:util';
import { loadConfig, productionConfigProblems } from '../config';
import { buildApp } from '../app';
import type { AppOptions } from '../app/build-app';
import { UsageError } from './usage-error';

export type ServeMode = NonNullable<AppOptions['mode']>;

/** What this process runs, from the flags: HTTP and job workers by default. */
export function serveMode(args: string[]): ServeMode {
  const { values } = parseArgs({
    args,
    options: { 'no-jobs': { type: 'boolean' }, 'jobs-only': { type: 'boolean' } },
    allowPositionals: false,
  });
  if (values['no-jobs'] && values['jobs-only']) {
    throw new UsageError('--no-jobs and --jobs-only exclude each other: give one, or neither to run both HTTP and the job workers.');
  }
  if (values['no-jobs']) return 'no-jobs';
  return values['jobs-only'] ? 'jobs-only' : 'all';
}

/** Runs the server until a stop signal; resolves with the process's exit code once it has drained. */
export async function serve(args: string[]): Promise<number> {
  const mode = serveMode(args);
  const config = loadConfig();
  const problems = productionConfigProblems(config);
  if (problems.length) {
    for (const problem of problems) console.error(`parley-server: ${problem}`);
    console.error('parley-server: NODE_ENV is production, so the server does not start without them (see .env.example).');
    return 1;
  }
  const app = await buildApp({ config, mode });

  let stopping = false;
  const stopped = new Promise<number>((resolve) => {
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'stopping: draining in-flight requests');
      // close() stops accepting connections, answers 503 to new requests on kept-alive ones, and waits for
      // in-flight requests before resolving.
      const timer = setTimeout(() => {
        app.log.error('drain timed out after 25 s; exiting');
        process.exit(1);
      }, 25_000);
      timer.unref();
      await app.close();
      resolve(0);
    };
    process.on('SIGTERM', () => void stop('SIGTERM'));
    process.on('SIGINT', () => void stop('SIGINT'));
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ docs: `${config.publicUrl}/docs`, database: app.parley.db.kind, mode }, 'Parley server ready');
  return stopped;
}
