// Opens one of the cache's SQLite files (better-sqlite3, WAL) and brings it to the newest schema with its
// own numbered migrations (PRAGMA user_version holds how many have run). A migration runs in a transaction
// with the version bump, so a crash leaves the file at the old version, never half-migrated.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

export function migrate(db: SqliteDatabase, migrations: readonly string[]): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(`The cache file is from a newer Parley (schema ${current}, this app knows ${migrations.length})`);
  }
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return migrations.length;
}

export function openSqlite(file: string, migrations: readonly string[]): SqliteDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // WAL + NORMAL: durable across app crashes, at most the last commit lost on power loss (a cache).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db, migrations);
  return db;
}

/** An id usable as a file name (Firebase uids and UUIDs are; anything else is refused, never escaped). */
export function safeFileId(id: string): string {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new Error(`Not a usable cache id: ${JSON.stringify(id)}`);
  return id;
}
