// The cache's own migrations: numbered, each in a transaction with its version bump, never run twice.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { userMigrations, workspaceMigrations } from '../../src/main/cache/migrations';
import { migrate, openSqlite } from '../../src/main/cache/sqlite';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-migrations-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('cache migrations', () => {
  it('creates the workspace schema in WAL mode with FTS5 tables, and reopening runs nothing again', () => {
    const file = path.join(dir, 'ws.sqlite');
    const db = openSqlite(file, workspaceMigrations);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(workspaceMigrations.length);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['contacts', 'contacts_fts', 'conversations', 'messages', 'messages_fts', 'attributes', 'members', 'meta']));
    db.prepare("INSERT INTO meta (key, value) VALUES ('kept', 'yes')").run();
    db.close();
    const again = openSqlite(file, workspaceMigrations);
    expect(again.prepare("SELECT value FROM meta WHERE key = 'kept'").get()).toEqual({ value: 'yes' });
    again.close();
  });

  it('runs only the new migrations of an older file', () => {
    const file = path.join(dir, 'user.sqlite');
    openSqlite(file, userMigrations).close();
    const db = new Database(file);
    expect(migrate(db, [...userMigrations, 'CREATE TABLE later (x INTEGER) STRICT;'])).toBe(userMigrations.length + 1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('drafts', 'later')").get()).toEqual({ n: 2 });
    db.close();
  });

  it('leaves the file at its old version when a migration fails (no half-migrated schema)', () => {
    const db = new Database(path.join(dir, 'broken.sqlite'));
    expect(() => migrate(db, ['CREATE TABLE a (x INTEGER);', 'CREATE TABLE b (x INTEGER); SELECT * FROM missing_table;'])).toThrow(/missing_table/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('refuses a file written by a newer app', () => {
    const db = new Database(path.join(dir, 'newer.sqlite'));
    db.pragma('user_version = 99');
    expect(() => migrate(db, workspaceMigrations)).toThrow(/newer Parley/);
    db.close();
  });
});
