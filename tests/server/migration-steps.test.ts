/**
 * Each migration over existing data, as Signal-Desktop tests its schema versions: a fresh database is migrated
 * to just before migration N, rows are written in the shape of that time, then N is applied and the rows are
 * checked. drizzle's migrator applies a journal, so "up to N" is a folder whose journal lists the first entries.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder, rowsOf, shippedMigrations } from '../../src/server/db/client';
import { openTestDatabase } from '../support/server';

const folders: string[] = [];
afterAll(() => {
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
});

/** A migrations folder whose journal stops before (or, with `through`, at) the migration tagged `tag`. */
function journalUpTo(tag: string, opts: { through?: boolean } = {}): string {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag}`);
  const entries = journal.entries.slice(0, opts.through ? at + 1 : at);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-migrations-'));
  folders.push(dir);
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

/** Runs `before` on a database migrated to just before `tag`, applies `tag`, then runs `after`. */
async function across(tag: string, before: (db: Database) => Promise<void>, after: (db: Database) => Promise<void>) {
  const { database, dispose } = await openTestDatabase({ migrate: false });
  try {
    await database.migrate(journalUpTo(tag));
    await before(database);
    await database.migrate(journalUpTo(tag, { through: true }));
    await after(database);
    // And the rest of the chain still applies on top.
    await database.migrate();
    expect(await database.migrationsApplied()).toBe(true);
  } finally {
    await dispose();
  }
}

const tagOf = (prefix: string) => {
  const m = shippedMigrations().find((e) => e.tag.startsWith(prefix));
  if (!m) throw new Error(`no migration ${prefix}`);
  return m.tag;
};

const q = async <T>(db: Database, query: ReturnType<typeof sql>) => rowsOf<T>(await db.db.execute(query));

async function workspace(db: Database): Promise<string> {
  const [w] = await q<{ id: string }>(db, sql`insert into workspaces (name) values ('Migrations') returning id`);
  return w.id;
}

// Three migration runs on a fresh database each: slow on a busy machine.
describe('migrations over existing rows', { timeout: 180_000 }, () => {
  it('0003 makes contacts.phone_number bytewise (COLLATE "C") and keeps every contact', async () => {
    let ws = '';
    const phones = ['+14155550101', '+447700900123', '+5511987654321', '+14155550199'];
    await across(
      tagOf('0003'),
      async (db) => {
        ws = await workspace(db);
        for (const [i, phone] of phones.entries()) {
          await db.db.execute(sql`insert into contacts (workspace_id, phone_number, name) values (${ws}, ${phone}, ${`Contact ${i}`})`);
        }
      },
      async (db) => {
        const rows = await q<{ phone_number: string; name: string }>(
          db,
          sql`select phone_number, name from contacts where workspace_id = ${ws} order by phone_number`,
        );
        expect(rows.map((r) => r.phone_number)).toEqual([...phones].sort());
        expect(rows.map((r) => r.name).sort()).toEqual(['Contact 0', 'Contact 1', 'Contact 2', 'Contact 3']);
        const [col] = await q<{ collation_name: string }>(
          db,
          sql`select collation_name from information_schema.columns where table_name = 'contacts' and column_name = 'phone_number'`,
        );
        expect(col.collation_name).toBe('C');
        // The separate text_pattern_ops phone index is gone; the unique index answers prefixes now.
        const indexes = await q<{ indexname: string }>(db, sql`select indexname from pg_indexes where tablename = 'contacts'`);
        expect(indexes.map((i) => i.indexname)).not.toContain('contacts_phone_prefix_idx');
        const prefix = await q<{ n: number }>(db, sql`select count(*)::int as n from contacts where workspace_id = ${ws} and phone_number like '+1415%'`);
        expect(prefix[0].n).toBe(2);
        // Still unique per workspace.
        await expect(db.db.execute(sql`insert into contacts (workspace_id, phone_number) values (${ws}, ${phones[0]})`)).rejects.toThrow();
      },
    );
  });

  it('0005 keeps existing campaign logs and adds runs, recipients and bot sessions with their unique keys', async () => {
    let ws = '';
    let campaign = '';
    let oldLog = '';
    await across(
      tagOf('0005'),
      async (db) => {
        ws = await workspace(db);
        [{ id: campaign }] = await q<{ id: string }>(
          db,
          sql`insert into campaigns (workspace_id, name, type, rf_instance, member_id)
              values (${ws}, 'Spring sale', 'oneTime', '{"nodes":[],"edges":[]}', gen_random_uuid()) returning id`,
        );
        [{ id: oldLog }] = await q<{ id: string }>(
          db,
          sql`insert into campaign_logs (workspace_id, campaign_id, phone_number, template_name, message_status, reason)
              values (${ws}, ${campaign}, '+14155550101', 'spring_sale', 'failed', 'Number not on WhatsApp') returning id`,
        );
      },
      async (db) => {
        const [log] = await q<Record<string, unknown>>(db, sql`select * from campaign_logs where id = ${oldLog}`);
        expect(log).toMatchObject({
          phone_number: '+14155550101',
          template_name: 'spring_sale',
          message_status: 'failed',
          reason: 'Number not on WhatsApp',
          run_id: null,
          recipient_id: null,
          step_id: null,
          wa_message_id: null,
        });

        const [{ id: contact }] = await q<{ id: string }>(
          db,
          sql`insert into contacts (workspace_id, phone_number, name) values (${ws}, '+14155550101', 'Ada') returning id`,
        );
        const [{ id: run }] = await q<{ id: string }>(
          db,
          sql`insert into campaign_runs (workspace_id, campaign_id, recipient_count) values (${ws}, ${campaign}, 1) returning id`,
        );
        const [{ id: recipient }] = await q<{ id: string }>(
          db,
          sql`insert into campaign_recipients (workspace_id, run_id, contact_id, step_id, status) values (${ws}, ${run}, ${contact}, 'send-1', 'sending') returning id`,
        );
        // One recipient per (run, contact).
        await expect(
          db.db.execute(sql`insert into campaign_recipients (workspace_id, run_id, contact_id) values (${ws}, ${run}, ${contact})`),
        ).rejects.toThrow();
        const logStep = (step: string, wamid: string) =>
          db.db.execute(sql`
            insert into campaign_logs (workspace_id, campaign_id, run_id, recipient_id, step_id, phone_number, template_name, message_status, wa_message_id)
            values (${ws}, ${campaign}, ${run}, ${recipient}, ${step}, '+14155550101', 'spring_sale', 'success', ${wamid})`);
        await logStep('send-1', 'wamid.1');
        // A retried step logs once: (recipient, step) is unique.
        await expect(logStep('send-1', 'wamid.1-again')).rejects.toThrow();
        await logStep('send-2', 'wamid.2');

        const [{ id: bot }] = await q<{ id: string }>(
          db,
          sql`insert into bots (workspace_id, title, rf_instance, member_id) values (${ws}, 'Greeter', '{"nodes":[],"edges":[]}', gen_random_uuid()) returning id`,
        );
        const [{ id: conversation }] = await q<{ id: string }>(
          db,
          sql`insert into conversations (workspace_id, contact_id) values (${ws}, ${contact}) returning id`,
        );
        const session = (status: string) =>
          db.db.execute(sql`
            insert into bot_sessions (workspace_id, bot_id, conversation_id, status, current_node_id, variables, waiting_for, expires_at)
            values (${ws}, ${bot}, ${conversation}, ${status}, 'collect-1', '{"name":"Ada"}', 'input', now() + interval '24 hours')`);
        await session('active');
        // One live session per conversation; ended ones stay as history beside it.
        await expect(session('active')).rejects.toThrow();
        await session('ended');
        await session('ended');
        const sessions = await q<{ status: string; variables: unknown }>(db, sql`select status, variables from bot_sessions where conversation_id = ${conversation}`);
        expect(sessions.map((s) => s.status).sort()).toEqual(['active', 'ended', 'ended']);
        expect(sessions[0].variables).toEqual({ name: 'Ada' });
      },
    );
  });

  it('0007 fills name_words for the contacts that exist, and keeps it in step with later writes', async () => {
    let ws = '';
    await across(
      tagOf('0007'),
      async (db) => {
        ws = await workspace(db);
        await db.db.execute(sql`
          insert into contacts (workspace_id, phone_number, name) values
            (${ws}, '+14155550101', 'Alice Archer'),
            (${ws}, '+14155550102', '  María  de la Cruz-Pérez '),
            (${ws}, '+14155550103', null)`);
      },
      async (db) => {
        const rows = await q<{ phone_number: string; name_words: string[] | null }>(
          db,
          sql`select phone_number, name_words from contacts where workspace_id = ${ws} order by phone_number`,
        );
        expect(rows.map((r) => r.name_words)).toEqual([['alice', 'archer'], ['maría', 'de', 'la', 'cruz', 'pérez'], null]);
        const found = await q<{ n: number }>(db, sql`select count(*)::int as n from contacts where workspace_id = ${ws} and name_words @> '{archer}'`);
        expect(found[0].n).toBe(1);
        await db.db.execute(sql`update contacts set name = 'Alice Bowman' where workspace_id = ${ws} and phone_number = '+14155550101'`);
        const [renamed] = await q<{ name_words: string[] }>(db, sql`select name_words from contacts where workspace_id = ${ws} and phone_number = '+14155550101'`);
        expect(renamed.name_words).toEqual(['alice', 'bowman']);
      },
    );
  });
});
