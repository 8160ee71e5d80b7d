/**
 * The contact import job. It streams the uploaded CSV, normalises each row, and writes it in chunks: one
 * transaction per chunk does the set-based upsert (INSERT ... SELECT FROM unnest(...) ON CONFLICT (workspace,
 * phone) DO UPDATE), stores the chunk's rejected rows, and advances the import's `processed_rows` and counts.
 * A run that dies mid-way (crash, deploy) is retried by the job queue and skips the rows already committed,
 * so nothing is written twice and the counts stay exact.
 *
 * Before writing anything, a first pass reads the whole file as CSV only: a file that is not valid CSV
 * fails with the line at fault and no row written (no half-written import); it also gives the row total
 * for progress events.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ImportHistory } from '../../shared';
import { rowsOf, type Executor } from '../db/client';
import * as t from '../db/schema';
import { appendEvent } from '../realtime/event-log';
import type { ServiceDeps } from '../services/context';
import type { FileStore } from '../storage/file-store';
import { parseKey } from '../storage/file-store';
import { attributeIndex } from '../segments';
import { csvBatches, describeCsvError, ImportFileError, inspectCsv, type CsvInfo } from './csv-file';
import { type ColumnPlan, type ContactInput, contactFields, rowToContact } from './rows';

export const importJobName = 'contacts.import';
export interface ImportJobData {
  importId: string;
  workspaceId: string;
}

export interface ImportRunOptions {
  /** Rows per transaction. */
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

interface Pending {
  line: number;
  outcome: ReturnType<typeof rowToContact>;
}

class ConcurrentRunError extends Error {}

/**
 * A UUID whose first 48 bits are the time in ms (the UUIDv7 layout): new contacts land at the right edge of the
 * primary-key index instead of at random pages, which keeps a million-row import's index writes cheap.
 */
export function timeOrderedId(): string {
  const ts = Date.now().toString(16).padStart(12, '0');
  const r = randomUUID();
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${r.slice(15)}`;
}

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
  async function writeChunk(row: HistoryRow, chunk: Pending[], processedBefore: number, total: number, announce: boolean) {
    const byPhone = new Map<string, ContactInput>();
    let duplicates = 0;
    const rejected: { line: number; value: string; reason: string }[] = [];
    for (const p of chunk) {
      if (!p.outcome.ok) {
        rejected.push({ line: p.line, value: p.outcome.value, reason: p.outcome.reason });
        continue;
      }
      const c = p.outcome.contact;
      const prev = byPhone.get(c.phone);
      if (prev) {
        // The same number twice in the file: one contact, later values win, attributes merged.
        duplicates++;
        byPhone.set(c.phone, {
          phone: c.phone,
          name: c.name ?? prev.name,
          email: c.email ?? prev.email,
          country: c.country ?? prev.country,
          city: c.city ?? prev.city,
          attributes: { ...prev.attributes, ...c.attributes },
        });
      } else byPhone.set(c.phone, c);
    }
    const contacts = [...byPhone.values()];
    return d.db.transaction(async (tx: Executor) => {
      // The chunk and its progress commit together, so a commit lost in a server crash is simply redone by
      // the resumed run: no need to wait for each chunk's WAL flush.
      if (d.db.kind === 'postgres') await tx.execute(sql`set local synchronous_commit = off`);
      let created = 0;
      if (contacts.length) {
        const result = await tx.execute(sql`
          with input as (
            select * from unnest(
              ${sql.param(contacts.map(() => timeOrderedId()))}::uuid[],
              ${sql.param(contacts.map((c) => c.phone))}::text[],
              ${sql.param(contacts.map((c) => c.name))}::text[],
              ${sql.param(contacts.map((c) => c.email))}::text[],
              ${sql.param(contacts.map((c) => c.country))}::text[],
              ${sql.param(contacts.map((c) => c.city))}::text[],
              ${sql.param(contacts.map((c) => JSON.stringify(c.attributes)))}::jsonb[]
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
      const updated = contacts.length - created + duplicates;
      if (rejected.length) {
        await tx.execute(sql`
          insert into ${t.importRejections} (workspace_id, import_id, row_number, value, reason)
          select ${row.workspaceId}::uuid, ${row.id}::uuid, * from unnest(
            ${sql.param(rejected.map((r) => r.line))}::int[],
            ${sql.param(rejected.map((r) => r.value.slice(0, 500)))}::text[],
            ${sql.param(rejected.map((r) => r.reason))}::text[]
          ) on conflict do nothing`);
      }
      const [progressed] = await tx
        .update(t.importHistories)
        .set({
          processedRows: processedBefore + chunk.length,
          createdCount: sql`${t.importHistories.createdCount} + ${created}`,
          updatedCount: sql`${t.importHistories.updatedCount} + ${updated}`,
          rejectedCount: sql`${t.importHistories.rejectedCount} + ${rejected.length}`,
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
    let total: number;
    try {
      info = await inspectCsv(path);
      plan = planColumns(info.header, row.columnAttributeMap as MapEntry[], await attributeIndex(db(), row.workspaceId));
      total = await prePass(path, info);
    } catch (err) {
      if (err instanceof ImportFileError) return fail(err.message);
      const csv = describeCsvError(err);
      if (csv) return fail(csv);
      throw err;
    }
    if (total === 0) return fail('The file has a header row but no contacts');

    const [ws] = await db().select({ c: t.workspaces.defaultCountry }).from(t.workspaces).where(eq(t.workspaces.id, row.workspaceId));
    const country = row.defaultCountry ?? ws?.c ?? 'US';

    let processed = row.processedRows;
    let seen = 0;
    let chunk: Pending[] = [];
    let inFlight = null as Promise<void> | null;
    let chunks = 0;
    let lastAnnounce = 0;
    const flush = async (last: boolean) => {
      if (inFlight) await inFlight;
      if (chunk.length === 0) return;
      const items = chunk;
      chunk = [];
      const before = processed;
      processed += items.length;
      const announce = last || Date.now() - lastAnnounce > 1000;
      if (announce) lastAnnounce = Date.now();
      // Written while the next chunk is parsed: the database works while this process reads.
      inFlight = writeChunk(row, items, before, total, announce).then(() => {
        chunks++;
        if (opts.failAfterChunks !== undefined && chunks >= opts.failAfterChunks) {
          throw new Error(`Injected failure after ${chunks} chunks`);
        }
      });
      inFlight.catch(() => undefined);
    };
    try {
      for await (const batch of csvBatches(path, info)) {
        for (const rec of batch) {
          seen++;
          if (seen <= row.processedRows) continue;
          chunk.push({ line: rec.row, outcome: rowToContact(rec.fields, plan, country) });
          if (chunk.length >= chunkSize) await flush(false);
        }
      }
      await flush(true);
      if (inFlight) await inFlight;
    } catch (err) {
      if (inFlight) await (inFlight as Promise<void>).catch(() => undefined);
      if (err instanceof ConcurrentRunError) return;
      const csv = describeCsvError(err);
      if (csv) return fail(csv, total);
      throw err;
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
