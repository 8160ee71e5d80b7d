/**
 * `tsx tests/e2e/support/stack-cli.ts`: starts the e2e stack, prints `PARLEY_STACK <json>` on stdout when it is
 * up, and stops it on SIGTERM/SIGINT or when stdin closes (the parent test run went away).
 */
import { startStack } from './stack';

const stack = await startStack((line) => process.stderr.write(`[stack] ${line}\n`));
const { stop, ...info } = stack;
process.stdout.write(`PARLEY_STACK ${JSON.stringify(info)}\n`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.stdin.on('end', () => void shutdown());
process.stdin.on('close', () => void shutdown());
process.stdin.resume();
