/**
 * The import's reader thread: streams the CSV (csv-parse), normalises every record (libphonenumber-js, attribute
 * formats) and posts prepared chunks to the importing thread, at most `window` chunks ahead of what it has
 * written. Phone validation is most of an import's CPU; here it runs beside the database work instead of
 * between its statements.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { csvBatches, describeCsvError } from './csv-file';
import type { ReaderJob, ReaderMessage } from './chunk-reader';
import { prepareChunk, rowToContact, type RowResult } from './rows';
import { timeOrderedId } from './time-ordered-id';

const require = createRequire(import.meta.url);
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (v: unknown) => string };

/** Bytes of field text after which a chunk is cut early, so that a window of chunks stays small in memory. */
const chunkBytes = 4 * 1024 * 1024;

const job = workerData as ReaderJob;
const port = parentPort!;
let credit = job.window;
let wake: (() => void) | null = null;
port.on('message', (m: { kind: 'ack' }) => {
  if (m.kind !== 'ack') return;
  credit++;
  const w = wake;
  wake = null;
  w?.();
});
const post = (m: ReaderMessage) => port.postMessage(m);

async function send(results: RowResult[]) {
  while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  post({ kind: 'chunk', chunk: prepareChunk(results, timeOrderedId, prepareValue) });
}

async function main() {
  let seen = 0;
  let results: RowResult[] = [];
  let bytes = 0;
  for await (const batch of csvBatches(job.path, job.info)) {
    for (const rec of batch) {
      seen++;
      if (seen <= job.skip) continue;
      results.push({ line: rec.row, outcome: rowToContact(rec.fields, job.plan, job.country) });
      for (const f of rec.fields) bytes += f.length;
      if (results.length >= job.chunkSize || bytes >= chunkBytes) {
        const full = results;
        results = [];
        bytes = 0;
        await send(full);
      }
    }
  }
  if (results.length) await send(results);
  post({ kind: 'end' });
}

main().catch((err: unknown) => {
  post({ kind: 'error', csv: describeCsvError(err), message: err instanceof Error ? err.message : String(err) });
});
