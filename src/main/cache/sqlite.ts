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

/** Per-connection settings (journal_mode = WAL is the file's own and stays). */
function tune(db: SqliteDatabase): void {
  // WAL + NORMAL: durable across app crashes, at most the last commit lost on power loss (a cache).
  db.pragma('synchronous = NORMAL');
  // 32 MB of page cache (the default is 2 MB): a 100,000-contact cache is ~100 MB, and searches that join
  // thousands of FTS hits back to their rows otherwise read most pages from the OS on every keystroke.
  db.pragma('cache_size = -32768');
  // Statement journals (every upsert and every statement with a trigger, inside a transaction) in memory,
  // not in a temp file created, written page by page and deleted for every transaction.
  db.pragma('temp_store = MEMORY');
  // Checkpoint the WAL back into the file every ~40 MB instead of every 4 MB: a checkpoint fsyncs twice and
  // rewrites the pages a sync or a burst of events keeps touching; the file is cut back to 64 MB after one.
  db.pragma('wal_autocheckpoint = 10000');
  db.pragma('journal_size_limit = 67108864');
}

/**
 * Creates the file owner-only (0600) before SQLite opens it, and narrows one an older version left 0644.
 * SQLite gives the -wal and -shm files it creates the database file's permissions, so they are 0600 too.
 */
export function ownerOnlyFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(file), 0o700);
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      fs.chmodSync(file + suffix, 0o600);
    } catch {
      // not there (yet)
    }
  }
}

export function openSqlite(file: string, migrations: readonly string[]): SqliteDatabase {
  ownerOnlyFile(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  tune(db);
  db.pragma('foreign_keys = ON');
  migrate(db, migrations);
  return db;
}

/**
 * Runs `work` in one transaction on a connection of its own, closed afterwards. For bulk FTS5 work: FTS5 keeps
 * the in-memory term table a large write grew for the connection's life, and every later commit on that
 * connection walks all of it (a whole-index rebuild made each small commit after it several times dearer).
 */
export function inOwnConnection(file: string, work: (db: SqliteDatabase) => void): void {
  const db = new Database(file);
  try {
    tune(db);
    db.transaction(() => work(db))();
  } finally {
    db.close();
  }
}

/** Whether an id is usable as a file name (Firebase uids and UUIDs are). */
export function isSafeFileId(id: unknown): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(id);
}

/** An id usable as a file name; anything else is refused, never escaped. */
export function safeFileId(id: string): string {
  if (!isSafeFileId(id)) throw new Error(`Not a usable cache id: ${JSON.stringify(id)}`);
  return id;
}
