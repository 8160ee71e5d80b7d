// The page thread's client: one node:worker_threads thread per process, started on the first page a sync hands
// it and reused by every later sync and workspace switch (starting one costs a module load; src/main/index.ts
// stops it on quit). Pages wait in order for their rows. When the thread cannot start, or stops, the pages are
// parsed in this thread instead: slower, never a failed sync.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type PageAnswer, type PageKind, PageNotJsonError, type PageRequest, type ParsedPage, parsePage } from './page-rows';

export interface PageParser {
  parse<K extends PageKind>(kind: K, text: string): Promise<ParsedPage<K>>;
}

/** Where the thread's code comes from: the app's built entry (a file), or code bundled in this process. */
export type WorkerSource = { file: URL } | { code: string };

/** Parses in the calling thread: the fallback, and what a test without a thread uses. */
export const inThreadPages: PageParser = { parse: async (kind, text) => parsePage(kind, text) };

interface Waiting {
  kind: PageKind;
  text: string;
  resolve(page: ParsedPage<PageKind>): void;
  reject(error: Error): void;
}

export class PageThread implements PageParser {
  private worker: Worker | null = null;
  private starting: Promise<Worker | null> | null = null;
  private broken = false;
  private readonly waiting = new Map<number, Waiting>();
  private lastId = 0;
  /** threads started so far, and how long the last took until it ran (ms) */
  readonly started = { count: 0, lastMs: 0 };

  constructor(
    private readonly source: () => Promise<WorkerSource>,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  async parse<K extends PageKind>(kind: K, text: string): Promise<ParsedPage<K>> {
    const worker = await (this.starting ??= this.start());
    if (!worker) return parsePage(kind, text);
    return new Promise<ParsedPage<K>>((resolve, reject) => {
      const id = ++this.lastId;
      this.waiting.set(id, { kind, text, resolve: resolve as Waiting['resolve'], reject });
      // a thread with nothing to do does not keep the process alive
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, kind, text } satisfies PageRequest);
    });
  }

  private async start(): Promise<Worker | null> {
    if (this.broken) return null;
    const t0 = performance.now();
    try {
      const source = await this.source();
      const worker = 'file' in source ? new Worker(source.file) : new Worker(source.code, { eval: true });
      this.worker = worker;
      this.started.count++;
      worker.unref();
      worker.once('online', () => (this.started.lastMs = performance.now() - t0));
      worker.on('message', (answer: PageAnswer) => this.answer(answer));
      worker.on('error', (error) => this.fail(worker, error));
      worker.on('exit', (code) => this.fail(worker, new Error(`it stopped (exit code ${code})`)));
      return worker;
    } catch (error) {
      this.fail(null, error);
      return null;
    }
  }

  private answer(answer: PageAnswer): void {
    const waiting = this.waiting.get(answer.id);
    if (!waiting) return;
    this.waiting.delete(answer.id);
    if (this.waiting.size === 0) this.worker?.unref();
    if ('page' in answer) waiting.resolve(answer.page);
    else waiting.reject(answer.notJson ? new PageNotJsonError(answer.error) : new Error(answer.error));
  }

  /** The thread could not start, or stopped: this process parses every page in its own thread from now on. */
  private fail(worker: Worker | null, error: unknown): void {
    if (worker !== this.worker) return;
    this.broken = true;
    this.worker = null;
    this.starting = Promise.resolve(null);
    this.log(`page thread: ${error instanceof Error ? error.message : String(error)}; pages are parsed in the main thread`);
    this.parseWaitingHere();
    void worker?.terminate();
  }

  private parseWaitingHere(): void {
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      inThreadPages.parse(waiting.kind, waiting.text).then(waiting.resolve, waiting.reject);
    }
  }

  /** Ends the thread (quit); a page handed over later starts a new one. */
  async stop(): Promise<void> {
    const starting = this.starting;
    this.starting = null;
    // a thread still starting is ended too, once it has started
    const worker = await starting;
    if (!worker) return;
    if (this.worker === worker) this.worker = null;
    this.parseWaitingHere();
    await worker.terminate();
  }
}

// esbuild is a development dependency: named through a variable so the app's bundler never pulls it in.
const ESBUILD = 'esbuild';
let bundled: Promise<WorkerSource> | null = null;

/**
 * Development and tests run main from TypeScript: the thread's entry is bundled once per process with esbuild
 * (about what a module load costs) instead of loading TypeScript through tsx in the thread, which took
 * seconds per start on a loaded machine.
 */
export function bundleFromSource(): Promise<WorkerSource> {
  bundled ??= (async () => {
    const esbuild = (await import(ESBUILD)) as typeof import('esbuild');
    const result = await esbuild.build({
      entryPoints: [path.join(path.dirname(fileURLToPath(import.meta.url)), 'page-worker.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    return { code: result.outputFiles[0]!.text };
  })();
  bundled.catch(() => (bundled = null));
  return bundled;
}

let builtEntry: URL | null = null;
let shared: PageThread | null = null;

/** The app's build names the thread's entry beside its own (src/main/index.ts); without it the source is bundled. */
export function usePageWorkerEntry(file: URL): void {
  builtEntry = file;
}

/** This process's page thread (made on first use). */
export function pageThread(log?: (line: string) => void): PageThread {
  shared ??= new PageThread(async () => (builtEntry ? { file: builtEntry } : bundleFromSource()), log ?? ((line) => console.warn(`[parley] ${line}`)));
  return shared;
}

export async function stopPageThread(): Promise<void> {
  await shared?.stop();
}
