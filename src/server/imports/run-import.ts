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
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { Readable } from 'node:stream';
import type { ImportHistory } from '../../shared';
import { rowsOf, type Executor } from '../db/client';
import * as t from '../db/schema';
import { appendEvent } from '../repositories/event-log';
import type { ServiceDeps } from '../services/context';
import type { FileStore } from '../storage/file-store';
import { parseKey } from '../storage/file-store';
import type { JobData } from '../jobs/names';
import { attributeIndex } from '../segments';
import { openChunkReader } from './chunk-reader';
import { csvBatches, describeCsvError, ImportFileError, inspectCsv, type CsvInfo } from './csv-file';
import { type ColumnPlan, contactFields, type PreparedChunk } from './rows';

export const importJobName = 'contacts.import';
export type ImportJobData = JobData<typeof importJobName>;

export interface ImportRunOptions {
  /** Rows per transaction (at most: a chunk with long rows is cut at about 4 MB). */
  chunkSize?: number;
  /** Tests: throw after this many chunks have been committed, as a crash would. */
  failAfterChunks?: number;
}

type HistoryRow = typeof t.importHistories.$inferSelect;
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
  if (plan.phone.length === 0) throw new ImportFileError('At least one column must be mapped to phoneNumber');
  return plan;
}

class ConcurrentRunError extends Error {}

/** CSV text of one report field; formula-looking values are defused for spreadsheets. */
function csvField(v: string | number): string {
  let s = String(v);
  if (/^[=@\t\r]/.test(s) || /^[+-][^\d]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function importRunner(d: ServiceDeps) {
  const db = () => d.db.db;

  async function load(importId: string): Promise<HistoryRow | null> {
    const [row] = await db().select().from(t.importHistories).where(eq(t.importHistories.id, importId)).limit(1);
    return row ?? null;
  }

  async function finish(row: HistoryRow, status: 'completed' | 'failed', fields: Partial<HistoryRow>, total: number) {
    await d.db.transaction(async (tx) => {
      const [done] = await tx
        .update(t.importHistories)
        .set({ status, finishedAt: new Date(), ...fields })
        .where(and(eq(t.importHistories.id, row.id), eq(t.importHistories.status, 'pending')))
        .returning();
      if (!done) return;
      await appendEvent(tx, row.workspaceId, 'import.finished', {
        importHistory: toImportHistoryWire(done, d.files),
        processed: done.processedRows,
        total: Math.max(total, done.processedRows),
      });
    });
  }

  /** Writes the rejected rows (row, value, reason) as a CSV in the file store; answers its key. */
  async function writeReport(row: HistoryRow): Promise<string> {
    const ws = row.workspaceId;
    async function* lines() {
      yield 'row,value,reason\n';
      let after = 0;
      for (;;) {
        const batch = await db()
          .select()
          .from(t.importRejections)
          .where(and(eq(t.importRejections.workspaceId, ws), eq(t.importRejections.importId, row.id), gt(t.importRejections.rowNumber, after)))
          .orderBy(asc(t.importRejections.rowNumber))
          .limit(5000);
        if (batch.length === 0) return;
        yield batch.map((r) => `${r.rowNumber},${csvField(r.value)},${csvField(r.reason)}\n`).join('');
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
  async function writeChunk(row: HistoryRow, chunk: PreparedChunk, processedBefore: number, total: number, announce: boolean) {
    const { columns: c, rejected } = chunk;
    return d.db.transaction(async (tx: Executor) => {
      // The chunk and its progress commit together, so a commit lost in a server crash is simply redone by
      // the resumed run: no need to wait for each chunk's WAL flush.
      if (d.db.kind === 'postgres') await tx.execute(sql`set local synchronous_commit = off`);
      let created = 0;
      if (chunk.contacts) {
        const result = await tx.execute(sql`
          with input as (
            select * from unnest(
              ${c.id}::uuid[], ${c.phone}::text[], ${c.name}::text[], ${c.email}::text[],
              ${c.country}::text[], ${c.city}::text[], ${c.attributes}::jsonb[]
            ) as u(id, phone, name, email, country, city, attributes)
          ), up as (
            insert into ${t.contacts} (id, workspace_id, phone_number, name, email, country, city, attributes)
            select id, ${row.workspaceId}::uuid, phone, name, email, country, city, attributes from input
            on conflict (workspace_id, phone_number) do update set
              name = coalesce(excluded.name, ${t.contacts}.name),
              email = coalesce(excluded.email, ${t.contacts}.email),
              country = coalesce(excluded.country, ${t.contacts}.country),
              city = coalesce(excluded.city, ${t.contacts}.city),
              attributes = ${t.contacts}.attributes || excluded.attributes,
              updated_at = now()
            returning (xmax = 0) as inserted
          )
          select count(*) filter (where inserted)::int as created from up`);
        created = rowsOf<{ created: number }>(result)[0].created;
      }
      const updated = chunk.contacts - created + chunk.duplicates;
      if (rejected.count) {
        await tx.execute(sql`
          insert into ${t.importRejections} (workspace_id, import_id, row_number, value, reason)
          select ${row.workspaceId}::uuid, ${row.id}::uuid, * from unnest(
            ${rejected.line}::int[], ${rejected.value}::text[], ${rejected.reason}::text[]
          ) on conflict do nothing`);
      }
      const [progressed] = await tx
        .update(t.importHistories)
        .set({
          processedRows: processedBefore + chunk.rows,
          createdCount: sql`${t.importHistories.createdCount} + ${created}`,
          updatedCount: sql`${t.importHistories.updatedCount} + ${updated}`,
          rejectedCount: sql`${t.importHistories.rejectedCount} + ${rejected.count}`,
        })
        .where(
          and(
            eq(t.importHistories.id, row.id),
            eq(t.importHistories.status, 'pending'),
            eq(t.importHistories.processedRows, processedBefore),
          ),
        )
        .returning();
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

  async function run(importId: string, opts: ImportRunOptions = {}): Promise<void> {
    const chunkSize = opts.chunkSize ?? 5000;
    const row = await load(importId);
    if (!row || row.status !== 'pending') return;
    const fail = (reason: string, total = 0) => finish(row, 'failed', { failureReason: reason }, total);

    const key = d.files.keyFromUrl(row.fileUrl);
    const parsed = key ? parseKey(key) : null;
    if (!key || !parsed || parsed.workspaceId !== row.workspaceId || parsed.area !== 'imports') {
      return fail('The file is not an upload of this workspace');
    }
    const path = d.files.pathOf(key);
    let info: CsvInfo;
    let plan: ColumnPlan;
    try {
      info = await inspectCsv(path);
      plan = planColumns(info.header, row.columnAttributeMap as MapEntry[], await attributeIndex(db(), row.workspaceId));
    } catch (err) {
      if (err instanceof ImportFileError) return fail(err.message);
      throw err;
    }
    const [ws] = await db().select({ c: t.workspaces.defaultCountry }).from(t.workspaces).where(eq(t.workspaces.id, row.workspaceId));
    const country = row.defaultCountry ?? ws?.c ?? 'US';

    // The reader starts normalising at once; the whole-file CSV check below runs meanwhile on this thread, and
    // the reader's window is wide enough to keep it busy until the check ends.
    const reader = openChunkReader({ path, info, plan, country, skip: row.processedRows, chunkSize, window: 32 });
    let total = 0;
    try {
      try {
        total = await prePass(path, info);
      } catch (err) {
        const csv = describeCsvError(err);
        if (csv) return await fail(csv);
        throw err;
      }
      if (total === 0) return await fail('The file has a header row but no contacts');

      let processed = row.processedRows;
      let chunks = 0;
      let lastAnnounce = 0;
      for await (const chunk of reader) {
        const last = processed + chunk.rows >= total;
        const announce = last || Date.now() - lastAnnounce > 1000;
        if (announce) lastAnnounce = Date.now();
        await writeChunk(row, chunk, processed, total, announce);
        processed += chunk.rows;
        chunks++;
        if (opts.failAfterChunks !== undefined && chunks >= opts.failAfterChunks) {
          throw new Error(`Injected failure after ${chunks} chunks`);
        }
      }
    } catch (err) {
      if (err instanceof ConcurrentRunError) return;
      if (err instanceof ImportFileError) return fail(err.message, total);
      throw err;
    } finally {
      await reader.close();
    }

    const current = (await load(importId))!;
    const reportKey = current.rejectedCount > 0 ? await writeReport(current) : null;
    await finish(current, 'completed', { errorReportKey: reportKey }, total);
  }

  return { run, fail: async (importId: string, reason: string) => {
    const row = await load(importId);
    if (row && row.status === 'pending') await finish(row, 'failed', { failureReason: reason }, 0);
  } };
}
