/** Starts the server: configuration from the environment, listen, and a graceful stop on SIGTERM/SIGINT. */
import { loadConfig } from './config';
import { buildApp } from './app';

const config = loadConfig();
// --no-jobs: serve HTTP, run no job workers; --jobs-only: run the workers, answer only health checks.
const flags = new Set(process.argv.slice(2));
if (flags.has('--no-jobs') && flags.has('--jobs-only')) throw new Error('--no-jobs and --jobs-only exclude each other');
const app = await buildApp({ config, mode: flags.has('--jobs-only') ? 'jobs-only' : flags.has('--no-jobs') ? 'no-jobs' : 'all' });

let stopping = false;
async function stop(signal: string) {
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
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

await app.listen({ port: config.port, host: config.host });
app.log.info({ docs: `${config.publicUrl}/docs`, database: app.parley.db.kind }, 'Parley server ready');
