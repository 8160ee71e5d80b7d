/**
 * The contact import job. A reader thread (chunk-reader.ts) streams the uploaded CSV, normalises each row and
 * prepares chunks; this thread writes them: one transaction per chunk does the set-based upsert (INSERT ...
 * SELECT FROM unnest(...) ON CONFLICT (workspace, phone) DO UPDATE), stores the chunk's rejected rows, and
 * advances the import's `processed_rows` and counts. A run that dies mid-way (crash, deploy) is retried by the
 * job queue and skips the rows already committed, so nothing is written twice and the counts stay exact.
 *
 * Before writing anything, this thread reads the whole file once as CSV only, while the reader already
 * normalises the first chunks: a file that is not valid CSV fails with the line at fault and no row written
 * (no half-written import); that pass also gives the row total for progress events.
 */
import { Readable } from 'node:stream';
import { type ImportHistory, messages } from '../../shared';
import { appendEvent } from '../repositories/event-log';
import * as imports from '../repositories/imports';
import type { ImportHistoryRow as HistoryRow } from '../repositories/imports';
import { defaultCountryOf } from '../repositories/workspaces';
import type { ServiceDeps } from '../services/context';
import { csvRow, csvRows } from '../services/csv';
import type { FileStore } from '../storage/file-store';
import { parseKey } from '../storage/file-store';
import type { JobData } from '../jobs/names';
import { attributeIndex } from '../repositories/segment-contacts';
import { openChunkReader } from './chunk-reader';
import { csvBatches, describeCsvError, ImportFileError, inspectCsv, type CsvInfo } from './csv-file';
import { type ColumnPlan, contactFields, type PreparedChunk } from './rows';
import type { ChunkReader } from './chunk-reader';

export const importJobName = 'contacts.import';
export type ImportJobData = JobData<typeof importJobName>;

export interface ImportRunOptions {
  /** Rows per transaction (at most: a chunk with long rows is cut at about 4 MB). */
  chunkSize?: number;
  /** Tests: throw after this many chunks have been committed, as a crash would. */
  failAfterChunks?: number;
}

export interface MapEntry {
  columnName: string;
  attribute?: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toImportHistoryWire(r: HistoryRow, files: FileStore): ImportHistory {
  return {
    id: r.id,
    fileName: r.fileName,
    fileUrl: r.fileUrl,
    workspaceId: r.workspaceId,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    memberId: r.memberId,
    createdCount: r.createdCount,
    updatedCount: r.updatedCount,
    rejectedCount: r.rejectedCount,
    processedRows: r.processedRows,
    failureReason: r.failureReason,
    errorReportUrl: r.errorReportKey ? files.url(r.errorReportKey) : null,
    finishedAt: iso(r.finishedAt),
  };
}

/**
 * Which CSV column feeds what. Columns are matched by name ignoring case and surrounding spaces; an entry
 * without an attribute ignores its column. Throws ImportFileError with a sentence for the user.
 */
export function planColumns(
  header: string[],
  map: MapEntry[],
  attributes: Map<string, { name: string; format: 'text' | 'number' | 'boolean' }>,
): ColumnPlan {
  const index = new Map<string, number>();
  header.forEach((h, i) => {
    const k = h.trim().toLowerCase();
    if (!index.has(k)) index.set(k, i);
  });
  const plan: ColumnPlan = { phone: [], fields: [], attributes: [], width: header.length };
  const missing: string[] = [];
  for (const e of map) {
    if (!e.attribute) continue;
    const i = index.get(e.columnName.trim().toLowerCase());
    if (i === undefined) {
      missing.push(e.columnName);
      continue;
    }
    if (e.attribute === 'phoneNumber') plan.phone.push(i);
    else if (e.attribute === 'userId') plan.userId ??= i;
    else if ((contactFields as readonly string[]).includes(e.attribute)) {
      plan.fields.push({ field: e.attribute as ColumnPlan['fields'][number]['field'], index: i });
    } else {
      const attr = attributes.get(e.attribute.toLowerCase());
      if (!attr) throw new ImportFileError(`Unknown attribute: ${e.attribute}`);
      plan.attributes.push({ name: attr.name, format: attr.format, index: i });
    }
  }
  if (missing.length) {
    throw new ImportFileError(
      `${missing.map((m) => `"${m}"`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not a column of the file; its columns are: ${header.join(', ')}`,
    );
  }
  if (plan.phone.length === 0 && plan.userId === undefined) throw new ImportFileError(messages.importNeedsPhone);
  return plan;
}

class ConcurrentRunError extends Error {}

type RunnerDeps = Pick<ServiceDeps, 'db' | 'files'>;

/** Ends a pending import and tells the workspace (nothing when another run already ended it). */
async function finish(d: RunnerDeps, row: HistoryRow, status: 'completed' | 'failed', fields: Partial<HistoryRow>, total: number) {
  await d.db.transaction(async (tx) => {
    const done = await imports.finishImport(tx, row.id, status, fields);
    if (!done) return;
    await appendEvent(tx, row.workspaceId, 'import.finished', {
      importHistory: toImportHistoryWire(done, d.files),
      processed: done.processedRows,
      total: Math.max(total, done.processedRows),
    });
  });
}

/** Writes the rejected rows (row, value, reason) as a CSV in the file store; answers its key. */
async function writeReport(d: RunnerDeps, row: HistoryRow): Promise<string> {
  const ws = row.workspaceId;
  async function* lines() {
    yield csvRow(['row', 'value', 'reason']);
    let after = 0;
    for (;;) {
      const batch = await imports.rejectionsAfter(d.db.db, ws, row.id, after, 5000);
      if (batch.length === 0) return;
      yield csvRows(batch.map((r) => [r.rowNumber, r.value, r.reason]));
      after = batch[batch.length - 1].rowNumber;
    }
  }
  const base = row.fileName.replace(/\.[^.]*$/, '') || 'import';
  const stored = await d.files.put({
    workspaceId: ws,
    area: 'import-reports',
    fileName: `${base}-rejected-rows.csv`,
    mimeType: 'text/csv',
    data: Readable.from(lines()),
  });
  return stored.key;
}

/** One chunk in one transaction: upsert, rejections, progress (guarded against a second runner). */
async function writeChunk(d: RunnerDeps, row: HistoryRow, chunk: PreparedChunk, processedBefore: number, total: number, announce: boolean) {
  const { rejected } = chunk;
  return d.db.transaction(async (tx) => {
    if (d.db.kind === 'postgres') await imports.skipCommitFlush(tx);
    const upsert = chunk.byUserId ? imports.upsertContactsByUserId : imports.upsertContactColumns;
    const created = chunk.contacts ? await upsert(tx, row.workspaceId, chunk.columns) : 0;
    if (rejected.count) await imports.insertRejections(tx, row.workspaceId, row.id, rejected);
    const progressed = await imports.advanceImport(tx, row.id, processedBefore, {
      rows: chunk.rows,
      created,
      updated: chunk.contacts - created + chunk.duplicates,
      rejected: rejected.count,
    });
    if (!progressed) throw new ConcurrentRunError('Another run of this import moved on; this one stops');
    if (announce) {
      await appendEvent(tx, row.workspaceId, 'import.progress', {
        importHistory: toImportHistoryWire(progressed, d.files),
        processed: progressed.processedRows,
        total,
      });
    }
  });
}

/** Counts the data records, or answers why the file is not valid CSV. */
async function prePass(path: string, info: CsvInfo): Promise<number> {
  let n = 0;
  for await (const batch of csvBatches(path, info)) n += batch.length;
  return n;
}

/** The key of the import's stored file, or null when its address is not an upload of its workspace's imports. */
function importFileKey(d: ServiceDeps, row: HistoryRow): string | null {
  const key = d.files.keyFromUrl(row.fileUrl);
  const parsed = key ? parseKey(key) : null;
  return key && parsed && parsed.workspaceId === row.workspaceId && parsed.area === 'imports' ? key : null;
}

/** The CSV shape and column plan of the import's file (at `path`, on disk); or the sentence the import fails with. */
async function prepare(d: ServiceDeps, row: HistoryRow, path: string): Promise<{ path: string; info: CsvInfo; plan: ColumnPlan } | { failure: string }> {
  try {
    const info = await inspectCsv(path);
    const plan = planColumns(info.header, row.columnAttributeMap as MapEntry[], await attributeIndex(d.db.db, row.workspaceId));
    return { path, info, plan };
  } catch (err) {
    if (err instanceof ImportFileError) return { failure: err.message };
    throw err;
  }
}

/** Writes the reader's chunks in order, announcing progress at most once a second (and at the last chunk). */
async function writeChunks(d: RunnerDeps, row: HistoryRow, reader: ChunkReader, total: number, opts: ImportRunOptions) {
  let processed = row.processedRows;
  let chunks = 0;
  let lastAnnounce = 0;
  for await (const chunk of reader) {
    const last = processed + chunk.rows >= total;
    const announce = last || Date.now() - lastAnnounce > 1000;
    if (announce) lastAnnounce = Date.now();
    await writeChunk(d, row, chunk, processed, total, announce);
    processed += chunk.rows;
    chunks++;
    if (opts.failAfterChunks !== undefined && chunks >= opts.failAfterChunks) {
      throw new Error(`Injected failure after ${chunks} chunks`);
    }
  }
}

export function importRunner(d: ServiceDeps) {
  const fail = (row: HistoryRow, reason: string, total = 0) => finish(d, row, 'failed', { failureReason: reason }, total);

  /**
   * Checks the whole file as CSV and writes its chunks; answers the row total, or null when the import ended
   * here (failed, or another run moved on).
   */
  async function readAndWrite(row: HistoryRow, file: { path: string; info: CsvInfo; plan: ColumnPlan }, opts: ImportRunOptions) {
    const country = row.defaultCountry ?? (await defaultCountryOf(d.db.db, row.workspaceId));
    // The reader starts normalising at once; the whole-file CSV check below runs meanwhile on this thread, and
    // the reader's window is wide enough to keep it busy until the check ends.
    const { path, info, plan } = file;
    const reader = openChunkReader({ path, info, plan, country, skip: row.processedRows, chunkSize: opts.chunkSize ?? 5000, window: 32 });
    let total = 0;
    try {
      try {
        total = await prePass(path, info);
      } catch (err) {
        const csv = describeCsvError(err);
        if (csv) return void (await fail(row, csv));
        throw err;
      }
      if (total === 0) return void (await fail(row, 'The file has a header row but no contacts'));
      await writeChunks(d, row, reader, total, opts);
      return total;
    } catch (err) {
      if (err instanceof ConcurrentRunError) return null;
      if (err instanceof ImportFileError) return void (await fail(row, err.message, total));
      throw err;
    } finally {
      await reader.close();
    }
  }

  async function run(importId: string, opts: ImportRunOptions = {}): Promise<void> {
    const row = await imports.importById(d.db.db, importId);
    if (!row || row.status !== 'pending') return;
    const key = importFileKey(d, row);
    if (!key) return fail(row, 'The file is not an upload of this workspace');
    // The reader needs the file on disk (a worker thread reads it): a stored object is copied there first.
    const total = await d.files.withLocalCopy(key, async (path) => {
      const file = await prepare(d, row, path);
      if (!('failure' in file)) return readAndWrite(row, file, opts);
      await fail(row, file.failure);
      return null;
    });
    if (total == null) return;
    const current = (await imports.importById(d.db.db, importId))!;
    const reportKey = current.rejectedCount > 0 ? await writeReport(d, current) : null;
    await finish(d, current, 'completed', { errorReportKey: reportKey }, total);
  }

  return {
    run,
    fail: async (importId: string, reason: string) => {
      const row = await imports.importById(d.db.db, importId);
      if (row && row.status === 'pending') await fail(row, reason);
    },
  };
}
