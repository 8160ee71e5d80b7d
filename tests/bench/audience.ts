/**
 * Audience at scale, on PostgreSQL: import a generated 1,000,000-row CSV end to end (the import job: parse,
 * normalise, chunked upserts, error report) against a raw COPY of the same file into a bare table; then, over
 * those 1,000,000 contacts, a segment count with three filters and the first contacts page and searches.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, desc, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import pg from 'pg';
import { loadConfig } from '../../src/server/config';
import { openDatabase, rowsOf } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { normalisePhone } from '../../src/server/imports/rows';
import { importRunner } from '../../src/server/imports/run-import';
import * as r from '../../src/server/repositories/resources';
import { countSegment, segmentWhere } from '../../src/server/repositories/segment-contacts';
import type { ServiceDeps } from '../../src/server/services/context';
import { contactsPage } from '../../src/server/repositories/contact-list';
import { searchCondition } from '../../src/server/repositories/contact-search';
import { createFileStore } from '../../src/server/storage/file-store';
import type { SegmentFilter } from '../../src/shared/schemas/entities';
import { backendCpu } from './lib-cpu';
import { type Benchmark, percentile, round } from './types';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const firstNames = ['Maria', 'Mark', 'Max', 'Ada', 'Alan', 'Grace', 'Linus', 'Sofia', 'Omar', 'Yuki', 'Chen', 'Ines', 'Kofi', 'Lena', 'Noah', 'Priya', 'Ravi', 'Sara', 'Tom', 'Zoe'];
const lastNames = ['Silva', 'Smith', 'Müller', 'Rossi', 'Kim', 'Okafor', 'Novak', 'García', 'Haddad', 'Tanaka'];
const plans = ['gold', 'silver', 'bronze', 'free'];

/** Writes the CSV (header + ROWS rows; every 13th row without e-mail) and answers its path and size. */
function generateCsv(dir: string): { file: string; bytes: number } {
  const file = path.join(dir, 'contacts-1m.csv');
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'phone,name,email,plan,age\n');
  let buf: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const phone = `+1415${String(2_000_000 + i)}`;
    const name = `${firstNames[i % 20]} ${lastNames[(i >> 3) % 10]}`;
    const email = i % 13 === 0 ? '' : `user${i}@example.com`;
    buf.push(`${phone},${name},${email},${plans[i % 4]},${18 + (i % 70)}`);
    if (buf.length === 50_000) {
      fs.writeSync(fd, `${buf.join('\n')}\n`);
      buf = [];
    }
  }
  if (buf.length) fs.writeSync(fd, `${buf.join('\n')}\n`);
  fs.closeSync(fd);
  return { file, bytes: fs.statSync(file).size };
}

async function timeIt<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** Milliseconds of a server-side COPY ... FROM '<file>'; psql's \copy when the server cannot read the file. */
async function timedCopy(client: pg.Client, url: string, statement: string): Promise<number> {
  try {
    return (await timeIt(() => client.query(statement))).ms;
  } catch {
    const start = performance.now();
    execFileSync('psql', [url, '-c', `\\${statement}`]);
    return performance.now() - start;
  }
}

async function samples(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn(i); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await timeIt(() => fn(i))).ms);
  return out;
}

export const benchmark: Benchmark = {
  name: 'audience',
  needsDatabase: true,
  async run(ctx) {
    const url = ctx.databaseUrl!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
    fs.chmodSync(dir, 0o755);
    const database = await openDatabase({ url, poolSize: 4 });
    try {
      await database.migrate();
      const db = database.db;
      const [ws] = await db.insert(t.workspaces).values({ name: 'Bench Workspace' }).returning();
      const [member] = await db.insert(t.members).values({ uid: 'bench-member', currentWorkspaceId: ws.id }).returning();
      await db.insert(t.workspaceMembers).values({ workspaceId: ws.id, memberId: member.id, role: 'admin' });
      await db.insert(t.attributes).values([
        { workspaceId: ws.id, name: 'plan', format: 'text', memberId: member.id },
        { workspaceId: ws.id, name: 'age', format: 'number', memberId: member.id },
      ]);

      ctx.log(`generating ${ROWS} rows`);
      const csv = generateCsv(dir);
      fs.chmodSync(csv.file, 0o644);
      ctx.log(`${round(csv.bytes / 2 ** 20)} MB`);

      // Baseline: COPY of the same file into a bare table.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('create table bench_copy (phone text, name text, email text, plan text, age text)');
      const copyCpu = backendCpu(url);
      await copyCpu.start();
      const copyMs = await timedCopy(client, url, `copy bench_copy from '${csv.file}' with (format csv, header true)`);
      const copyCpuS = await copyCpu.stop();
      await client.query('drop table bench_copy');
      ctx.log(`COPY baseline ${round(copyMs)} ms`);

      // The database's share alone: COPY of the same file into a table shaped like contacts with the indexes
      // contacts keeps for search, paging and segments (attributes indexed as the jsonb the import builds).
      // No import that keeps those indexes can write faster than this.
      // Keys in insertion order, as the import's time-ordered ids are.
      await client.query('create sequence bench_copy_seq');
      await client.query(`create table bench_copy_indexed (
        id uuid primary key default lpad(to_hex(nextval('bench_copy_seq')), 32, '0')::uuid, workspace_id uuid not null default '${ws.id}',
        phone_number text collate "C" not null, name text, email text, plan text, age text,
        created_at timestamptz(3) not null default now())`);
      await client.query(`create unique index on bench_copy_indexed (workspace_id, phone_number)`);
      await client.query(`create index on bench_copy_indexed (workspace_id, created_at, id)`);
      // jsonb_build_object is not IMMUTABLE, so an index expression needs it behind a function declared so.
      await client.query(`create function bench_attributes(plan text, age text) returns jsonb language sql immutable
        as $$ select jsonb_build_object('plan', plan, 'age', age::numeric) $$`);
      await client.query(`create index on bench_copy_indexed using gin (bench_attributes(plan, age) jsonb_path_ops)`);
      await client.query(`create index on bench_copy_indexed (workspace_id, lower(name) text_pattern_ops)`);
      await client.query(`create index on bench_copy_indexed (workspace_id, lower(email) text_pattern_ops)`);
      await client.query(`alter table bench_copy_indexed add column name_words text[] generated always as (regexp_split_to_array(lower(btrim(name)), '[\\s,.;:()"/-]+')) stored`);
      await client.query(`create index on bench_copy_indexed using gin (name_words)`);
      const copyIndexedMs = await timedCopy(
        client,
        url,
        `copy bench_copy_indexed (phone_number, name, email, plan, age) from '${csv.file}' with (format csv, header true)`,
      );
      await client.query('drop table bench_copy_indexed');
      await client.query('drop function bench_attributes');
      await client.query('drop sequence bench_copy_seq');
      await client.end();
      ctx.log(`COPY into an indexed table ${round(copyIndexedMs)} ms`);

      // The server's share alone: validating and normalising the file's phone numbers on one thread.
      const phones = fs
        .readFileSync(csv.file, 'utf8')
        .split('\n')
        .slice(1, -1)
        .map((line) => line.slice(0, line.indexOf(',')));
      const phoneMs = (await timeIt(async () => phones.filter((p) => normalisePhone(p, 'US') !== null).length)).ms;
      ctx.log(`phone validation ${round(phoneMs)} ms`);

      // The import: the file as the upload route stores it, then the import job's own code.
      const files = createFileStore({ dataDir: dir, publicUrl: 'http://bench.local' });
      const stored = await timeIt(() =>
        files.put({ workspaceId: ws.id, area: 'imports', fileName: 'contacts-1m.csv', mimeType: 'text/csv', data: fs.createReadStream(csv.file) }),
      );
      const [history] = await db
        .insert(t.importHistories)
        .values({
          workspaceId: ws.id,
          fileName: 'contacts-1m.csv',
          fileUrl: stored.value.url,
          memberId: member.id,
          columnAttributeMap: [
            { columnName: 'phone', attribute: 'phoneNumber' },
            { columnName: 'name', attribute: 'name' },
            { columnName: 'email', attribute: 'email' },
            { columnName: 'plan', attribute: 'plan' },
            { columnName: 'age', attribute: 'age' },
          ],
        })
        .returning();
      const deps = {
        config: loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv),
        db: database,
        files,
        log: pino({ level: 'silent' }),
      } as unknown as ServiceDeps;
      ctx.log('importing');
      const importCpu = backendCpu(url);
      await importCpu.start();
      const nodeCpuBefore = process.cpuUsage();
      const imported = await timeIt(() => importRunner(deps).run(history.id));
      const nodeCpu = process.cpuUsage(nodeCpuBefore);
      const nodeCpuS = (nodeCpu.user + nodeCpu.system) / 1e6;
      const pgCpuS = await importCpu.stop();
      const [done] = await db.select().from(t.importHistories).where(eq(t.importHistories.id, history.id));
      if (done.status !== 'completed') throw new Error(`import ended ${done.status}: ${done.failureReason}`);
      ctx.log(`import ${round(imported.ms)} ms: created ${done.createdCount}, updated ${done.updatedCount}, rejected ${done.rejectedCount}`);

      // Right after a million inserts autovacuum starts on contacts (and merges the name_words GIN's pending list,
      // a million entries), competing with the queries timed below; the steady state it reaches is measured instead.
      const autovacuumBusy = async () =>
        Number(
          rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pg_stat_activity where query like 'autovacuum:%contacts%'`))[0]
            ?.n ?? 0,
        );
      const autovacuumAfterImport = await autovacuumBusy();
      const vacuumStart = performance.now();
      await db.execute(sql`vacuum analyze ${t.contacts}`);
      const vacuumMs = performance.now() - vacuumStart;
      ctx.log(`vacuum analyze after the import: ${round(vacuumMs)} ms (autovacuum on contacts when the import ended: ${autovacuumAfterImport})`);
      const filters: SegmentFilter[] = [
        { column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' },
        { column: 'name', value: 'ma', operator: 'STARTS_WITH', conjuction: 'AND' },
        { column: 'email', value: '', operator: 'IS_NOT_EMPTY', conjuction: 'AND' },
      ];
      let matched = 0;
      const segment = await samples(30, async () => {
        matched = await countSegment(db, ws.id, filters);
      });
      ctx.log(`segment count ${matched}, p95 ${round(percentile(segment, 95))} ms`);
      const firstPage = await samples(50, () => r.contacts.page(db, ws.id, { limit: 50 }));
      // Prefixes, whole words of the name (a common one, two in reverse order), phones, and one that matches nothing.
      const queries = ['maria', 'user12345', '+1415234', '(415) 299-99', 'zoe t', 'tanaka', 'silva maria', 'nobody-here'];
      // The handler's own path (contactsPage), so phone searches take the same plan as in the product.
      const search = await samples(60, (i) => {
        const q = queries[i % queries.length];
        return contactsPage(db, ws.id, { search: q, limit: 50 }, undefined, searchCondition(q, 'US'));
      });

      // Which indexes the plans use (evidence for the README).
      const plans: string[] = [];
      const explainer = new pg.Client({ connectionString: url });
      await explainer.connect();
      try {
        const show = async (label: string, q: { sql: string; params: unknown[] }) => {
          const res = await explainer.query(`explain ${q.sql}`, q.params);
          const text = res.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join(' | ');
          const used = [...new Set(text.match(/contacts_[a-z_]+/g) ?? [])];
          plans.push(`${label}: ${used.length ? used.join(', ') : 'no index'} (${text.replace(/\s+/g, ' ').slice(0, 300)})`);
        };
        await show('segment count', db.select({ n: sql`count(*)` }).from(t.contacts).where(await segmentWhere(db, ws.id, filters)).toSQL());
        await show('first page', db.select().from(t.contacts).where(eq(t.contacts.workspaceId, ws.id)).orderBy(desc(t.contacts.createdAt), desc(t.contacts.id)).limit(51).toSQL());
        for (const q of ['user12345', '+1415234', '(415) 299-99', 'tanaka', 'nobody-here']) {
          await show(`search ${q}`, db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, ws.id), searchCondition(q, 'US'))).orderBy(desc(t.contacts.createdAt), desc(t.contacts.id)).limit(51).toSQL());
        }
      } finally {
        await explainer.end();
      }
      const importS = imported.ms / 1000;
      return {
        metrics: {
          importSeconds: { value: round(importS, 2), unit: 's', goal: 30, description: `import job, ${ROWS} rows end to end` },
          importVsCopy: { value: round(imported.ms / copyMs, 2), unit: 'x', goal: 3, description: 'import time / raw COPY time of the same file' },
          copySeconds: { value: round(copyMs / 1000, 2), unit: 's', description: 'raw COPY into a bare table (no indexes)' },
          importCpuNodeSeconds: { value: round(nodeCpuS, 2), unit: 's', description: 'CPU time of the import in this process (CSV parsing, phone validation, building chunks)' },
          importCpuDatabaseSeconds: { value: round(pgCpuS, 2), unit: 's', description: 'CPU time of the database backends during the import (upserts, index maintenance)' },
          copyIndexedSeconds: {
            value: round(copyIndexedMs / 1000, 2),
            unit: 's',
            description: "COPY of the same file into a table with contacts' indexes (unique phone, paging, GIN attributes, name and e-mail prefix): the database's floor for any import that keeps them",
          },
          copyIndexedVsCopy: { value: round(copyIndexedMs / copyMs, 2), unit: 'x', description: 'that indexed COPY / the bare COPY' },
          phoneValidationSeconds: { value: round(phoneMs / 1000, 2), unit: 's', description: `libphonenumber-js validating and normalising the ${ROWS} phone numbers on one thread` },
          copyCpuDatabaseSeconds: { value: round(copyCpuS, 2), unit: 's', description: 'CPU time of the database backend during the raw COPY' },
          importRowsPerSecond: { value: Math.round(ROWS / importS), unit: 'rows/s', description: 'import throughput' },
          storeSeconds: { value: round(stored.ms / 1000, 2), unit: 's', description: 'streaming the file into the file store (what the upload route does)' },
          segmentCountP95: { value: round(percentile(segment, 95)), unit: 'ms', goal: 300, description: `count of a 3-filter segment (attribute IS, STARTS_WITH, IS_NOT_EMPTY) over ${ROWS} contacts; ${matched} match` },
          contactsFirstPageP95: { value: round(percentile(firstPage, 95)), unit: 'ms', goal: 20, description: 'first page (50) of contacts, newest first' },
          contactsSearchP95: { value: round(percentile(search, 95)), unit: 'ms', goal: 20, description: `first page of a search; queries ${queries.join(' | ')}` },
          fileMB: { value: round(csv.bytes / 2 ** 20), unit: 'MB', description: 'generated CSV size' },
        },
        notes: [
          `Import: created ${done.createdCount}, updated ${done.updatedCount}, rejected ${done.rejectedCount}.`,
          'Timed through the service code (repositories, segment compiler, import job), not over HTTP, so no identity service is needed.',
          `Queries timed after VACUUM ANALYZE of contacts (${round(vacuumMs)} ms; autovacuum workers on contacts when the import ended: ${autovacuumAfterImport}).`,
          `Load average during the run: ${os.loadavg().map((l) => round(l)).join(', ')} on ${os.cpus().length} CPUs.`,
          ...plans,
        ],
      };
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
