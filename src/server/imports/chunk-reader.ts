/**
 * The importing thread's side of the reader worker (chunk-reader-worker.ts): starts it, hands out credit as
 * chunks are written, and turns its messages back into chunks or errors. A CSV syntax error comes back as an
 * ImportFileError with the sentence for the user.
 */
import { Worker } from 'node:worker_threads';
import { ImportFileError, type CsvInfo } from './csv-file';
import type { ColumnPlan, PreparedChunk } from './rows';

export interface ReaderJob {
  path: string;
  info: CsvInfo;
  plan: ColumnPlan;
  country: string;
  /** Data records already imported by an earlier run: read but not sent again. */
  skip: number;
  chunkSize: number;
  /** Chunks the reader may prepare ahead of those acknowledged. */
  window: number;
}

export type ReaderMessage =
  | { kind: 'chunk'; chunk: PreparedChunk }
  | { kind: 'end' }
  | { kind: 'error'; csv: string | null; message: string };

export interface ChunkReader extends AsyncIterable<PreparedChunk> {
  /** Stops the reader (whether or not it has finished). */
  close(): Promise<void>;
}

const entry = new URL('./chunk-reader-worker.mjs', import.meta.url);

export function openChunkReader(job: ReaderJob): ChunkReader {
  const worker = new Worker(entry, { workerData: job });
  const inbox: ReaderMessage[] = [];
  let wake: (() => void) | null = null;
  const deliver = (m: ReaderMessage) => {
    inbox.push(m);
    const w = wake;
    wake = null;
    w?.();
  };
  worker.on('message', deliver);
  worker.on('error', (err) => deliver({ kind: 'error', csv: null, message: err.message }));
  worker.on('exit', (code) => deliver({ kind: 'error', csv: null, message: `The import reader stopped (exit code ${code})` }));
  let closed = false;

  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (!inbox.length) await new Promise<void>((resolve) => (wake = resolve));
        const m = inbox.shift()!;
        if (m.kind === 'end') return;
        if (m.kind === 'error') {
          if (m.csv) throw new ImportFileError(m.csv);
          throw new Error(m.message);
        }
        worker.postMessage({ kind: 'ack' });
        yield m.chunk;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await worker.terminate();
    },
  };
}
