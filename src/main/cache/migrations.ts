// The cache's schemas. Append only: a shipped migration is never edited (installed apps have run it).

/** One file per user and workspace: what the agent browses offline. */
export const workspaceMigrations: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

  -- sync_gen: the full sync that last saw the row; rows an (re)sync did not see are swept at its end.
  CREATE TABLE contacts (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    name TEXT,
    phone TEXT NOT NULL,
    email TEXT,
    city TEXT,
    tags TEXT NOT NULL,
    data TEXT NOT NULL,
    sync_gen INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE INDEX contacts_created ON contacts (created_at DESC, id DESC);
  CREATE VIRTUAL TABLE contacts_fts USING fts5(
    name, phone, email, city, tags, content = 'contacts', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER contacts_fts_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO contacts_fts (rowid, name, phone, email, city, tags) VALUES (new.rowid, new.name, new.phone, new.email, new.city, new.tags);
  END;
  CREATE TRIGGER contacts_fts_delete AFTER DELETE ON contacts BEGIN
    INSERT INTO contacts_fts (contacts_fts, rowid, name, phone, email, city, tags) VALUES ('delete', old.rowid, old.name, old.phone, old.email, old.city, old.tags);
  END;
  CREATE TRIGGER contacts_fts_update AFTER UPDATE OF name, phone, email, city, tags ON contacts BEGIN
    INSERT INTO contacts_fts (contacts_fts, rowid, name, phone, email, city, tags) VALUES ('delete', old.rowid, old.name, old.phone, old.email, old.city, old.tags);
    INSERT INTO contacts_fts (rowid, name, phone, email, city, tags) VALUES (new.rowid, new.name, new.phone, new.email, new.city, new.tags);
  END;

  -- data: the Conversation wire shape; last_message: the newest Message (JSON) for the list.
  CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    contact_id TEXT NOT NULL,
    is_active INTEGER NOT NULL,
    assignee_member_id TEXT,
    assignee_bot_id TEXT,
    activity_at TEXT NOT NULL,
    unread INTEGER NOT NULL DEFAULT 0,
    data TEXT NOT NULL,
    last_message TEXT,
    last_message_at TEXT,
    sync_gen INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE INDEX conversations_activity ON conversations (activity_at DESC, id DESC);
  CREATE INDEX conversations_contact ON conversations (contact_id);

  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    text TEXT,
    data TEXT NOT NULL
  ) STRICT;
  CREATE INDEX messages_conversation ON messages (conversation_id, created_at, id);
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    text, content = 'messages', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text);
  END;

  CREATE TABLE attributes (id TEXT PRIMARY KEY, data TEXT NOT NULL, sync_gen INTEGER NOT NULL DEFAULT 0) STRICT;
  CREATE TABLE members (id TEXT PRIMARY KEY, data TEXT NOT NULL, sync_gen INTEGER NOT NULL DEFAULT 0) STRICT;
  `,
  // 2. The FTS triggers stand still while meta 'ftsDeferred' is set (a first sync fills the tables, then
  // rebuilds both indexes once: WorkspaceCache.beginFullSync/finishFullSync), and an update only touches the
  // index when an indexed column really changed (re-synced contacts, message status updates).
  `
  DROP TRIGGER contacts_fts_insert;
  DROP TRIGGER contacts_fts_delete;
  DROP TRIGGER contacts_fts_update;
  DROP TRIGGER messages_fts_insert;
  DROP TRIGGER messages_fts_delete;
  DROP TRIGGER messages_fts_update;
  CREATE TRIGGER contacts_fts_insert AFTER INSERT ON contacts
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred') BEGIN
    INSERT INTO contacts_fts (rowid, name, phone, email, city, tags) VALUES (new.rowid, new.name, new.phone, new.email, new.city, new.tags);
  END;
  CREATE TRIGGER contacts_fts_delete AFTER DELETE ON contacts
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred') BEGIN
    INSERT INTO contacts_fts (contacts_fts, rowid, name, phone, email, city, tags) VALUES ('delete', old.rowid, old.name, old.phone, old.email, old.city, old.tags);
  END;
  CREATE TRIGGER contacts_fts_update AFTER UPDATE OF name, phone, email, city, tags ON contacts
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred')
    AND (old.name IS NOT new.name OR old.phone IS NOT new.phone OR old.email IS NOT new.email OR old.city IS NOT new.city OR old.tags IS NOT new.tags) BEGIN
    INSERT INTO contacts_fts (contacts_fts, rowid, name, phone, email, city, tags) VALUES ('delete', old.rowid, old.name, old.phone, old.email, old.city, old.tags);
    INSERT INTO contacts_fts (rowid, name, phone, email, city, tags) VALUES (new.rowid, new.name, new.phone, new.email, new.city, new.tags);
  END;
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred') BEGIN
    INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred') BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred') AND old.text IS NOT new.text BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO messages_fts (rowid, text) VALUES (new.rowid, new.text);
  END;
  `,
  // 3. Customers WhatsApp knows by a user id: a contact's phone may be missing, and its username and user id
  // are searched too. SQLite cannot drop NOT NULL in place, so the table is rebuilt (its search index with it,
  // from the rows' own JSON, which already holds both) and the triggers are made again as in 2.
  `
  DROP TRIGGER contacts_fts_insert;
  DROP TRIGGER contacts_fts_delete;
  DROP TRIGGER contacts_fts_update;
  DROP TABLE contacts_fts;
  CREATE TABLE contacts_v3 (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    name TEXT,
    phone TEXT,
    username TEXT,
    user_id TEXT,
    email TEXT,
    city TEXT,
    tags TEXT NOT NULL,
    data TEXT NOT NULL,
    sync_gen INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  INSERT INTO contacts_v3 (id, created_at, name, phone, username, user_id, email, city, tags, data, sync_gen)
    SELECT id, created_at, name, phone, json_extract(data, '$.username'), json_extract(data, '$.userId'), email, city, tags, data, sync_gen
    FROM contacts;
  DROP TABLE contacts;
  ALTER TABLE contacts_v3 RENAME TO contacts;
  CREATE INDEX contacts_created ON contacts (created_at DESC, id DESC);
  CREATE VIRTUAL TABLE contacts_fts USING fts5(
    name, phone, username, user_id, email, city, tags, content = 'contacts', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO contacts_fts (contacts_fts) VALUES ('rebuild');
  CREATE TRIGGER contacts_fts_insert AFTER INSERT ON contacts
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred') BEGIN
    INSERT INTO contacts_fts (rowid, name, phone, username, user_id, email, city, tags) VALUES (new.rowid, new.name, new.phone, new.username, new.user_id, new.email, new.city, new.tags);
  END;
  CREATE TRIGGER contacts_fts_delete AFTER DELETE ON contacts
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred') BEGIN
    INSERT INTO contacts_fts (contacts_fts, rowid, name, phone, username, user_id, email, city, tags) VALUES ('delete', old.rowid, old.name, old.phone, old.username, old.user_id, old.email, old.city, old.tags);
  END;
  CREATE TRIGGER contacts_fts_update AFTER UPDATE OF name, phone, username, user_id, email, city, tags ON contacts
  WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'ftsDeferred')
    AND (old.name IS NOT new.name OR old.phone IS NOT new.phone OR old.username IS NOT new.username OR old.user_id IS NOT new.user_id
      OR old.email IS NOT new.email OR old.city IS NOT new.city OR old.tags IS NOT new.tags) BEGIN
    INSERT INTO contacts_fts (contacts_fts, rowid, name, phone, username, user_id, email, city, tags) VALUES ('delete', old.rowid, old.name, old.phone, old.username, old.user_id, old.email, old.city, old.tags);
    INSERT INTO contacts_fts (rowid, name, phone, username, user_id, email, city, tags) VALUES (new.rowid, new.name, new.phone, new.username, new.user_id, new.email, new.city, new.tags);
  END;
  `,
];

/** One file per user: settings, drafts and the member record (kept across workspace resyncs). */
export const userMigrations: readonly string[] = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  CREATE TABLE drafts (conversation_id TEXT PRIMARY KEY, text TEXT NOT NULL, updated_at TEXT NOT NULL) STRICT;
  `,
];
