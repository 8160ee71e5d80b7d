// The prepared statements of a workspace cache's writes and its fixed reads, made once when the cache opens.
import type { SqliteDatabase } from './sqlite';

/** A conversation row with its contact, as the list and a single conversation read it. */
export interface ConversationRow {
  data: string;
  contact: string | null;
  last_message: string | null;
  unread: number;
}

export function prepareStatements(db: SqliteDatabase) {
  return {
    begin: db.prepare('BEGIN'),
    commit: db.prepare('COMMIT'),
    getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    // Positional parameters (bound from an argument list) for the writes a full sync makes per row: binding by
    // name looks every parameter up as a property of an object made for the purpose.
    upsertContact: db.prepare<[string, string, string | null, string | null, string | null, string | null, string | null, string | null, string, string, number]>(
      `INSERT INTO contacts (id, created_at, name, phone, username, user_id, email, city, tags, data, sync_gen)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, name = excluded.name, phone = excluded.phone,
         username = excluded.username, user_id = excluded.user_id, email = excluded.email, city = excluded.city,
         tags = excluded.tags, data = excluded.data, sync_gen = excluded.sync_gen`,
    ),
    // the last parameter: the unread flag when the answer said it (null keeps the cached one)
    upsertConversation: db.prepare<
      [string, string, number, string | null, string | null, string, number, string, string | null, string | null, number, number | null]
    >(
      `INSERT INTO conversations (id, contact_id, is_active, assignee_member_id, assignee_bot_id, activity_at, unread, data, last_message, last_message_at, sync_gen)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET contact_id = excluded.contact_id, is_active = excluded.is_active,
         assignee_member_id = excluded.assignee_member_id, assignee_bot_id = excluded.assignee_bot_id,
         activity_at = excluded.activity_at, unread = coalesce(?, conversations.unread), data = excluded.data,
         last_message = coalesce(excluded.last_message, conversations.last_message),
         last_message_at = coalesce(excluded.last_message_at, conversations.last_message_at), sync_gen = excluded.sync_gen`,
    ),
    updateConversation: db.prepare(
      `UPDATE conversations SET contact_id = @contactId, is_active = @isActive, assignee_member_id = @assigneeMemberId,
         assignee_bot_id = @assigneeBotId, activity_at = max(activity_at, @activityAt), data = @data WHERE id = @id`,
    ),
    upsertMessage: db.prepare<[string, string, string, string | null, string]>(
      `INSERT INTO messages (id, conversation_id, created_at, text, data) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET text = excluded.text, data = excluded.data`,
    ),
    // The list's last message moves only forward (a status update of an older message replaces it only if it is the last).
    setLastMessage: db.prepare(
      `UPDATE conversations SET last_message = @data, last_message_at = @createdAt, activity_at = max(activity_at, @createdAt)
       WHERE id = @conversationId AND (last_message_at IS NULL OR last_message_at < @createdAt
         OR (last_message_at = @createdAt AND json_extract(last_message, '$.id') <= @id))`,
    ),
    contactGen: db.prepare<[string], { sync_gen: number }>('SELECT sync_gen FROM contacts WHERE id = ?'),
    markUnread: db.prepare('UPDATE conversations SET unread = @unread WHERE id = @id'),
    upsertAttribute: db.prepare(
      'INSERT INTO attributes (id, data, sync_gen) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, sync_gen = excluded.sync_gen',
    ),
    upsertMember: db.prepare(
      'INSERT INTO members (id, data, sync_gen) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, sync_gen = excluded.sync_gen',
    ),
    contact: db.prepare<[string], { data: string }>('SELECT data FROM contacts WHERE id = ?'),
    conversationsOfContact: db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE contact_id = ?'),
    deleteMessagesOf: db.prepare<[string]>('DELETE FROM messages WHERE conversation_id = ?'),
    deleteConversation: db.prepare<[string]>('DELETE FROM conversations WHERE id = ?'),
    // the contacts_fts_delete trigger drops its search entry
    deleteContact: db.prepare<[string]>('DELETE FROM contacts WHERE id = ?'),
    conversation: db.prepare<[string], ConversationRow>(
      `SELECT v.data, c.data AS contact, v.last_message, v.unread FROM conversations v LEFT JOIN contacts c ON c.id = v.contact_id WHERE v.id = ?`,
    ),
    messagesOf: db.prepare<[string, number], { data: string }>(
      `SELECT data FROM (SELECT data, created_at, id FROM messages WHERE conversation_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)
       ORDER BY created_at, id`,
    ),
    counts: db.prepare<{ me: string }, Record<string, number | null>>(
      `SELECT
         sum(is_active = 1 AND assignee_member_id = @me) AS me,
         sum(is_active = 1 AND (assignee_member_id IS NOT NULL OR assignee_bot_id IS NOT NULL)) AS assigned,
         sum(is_active = 1) AS open,
         sum(is_active = 0) AS closed,
         sum(unread = 1 AND is_active = 1 AND assignee_member_id = @me) AS unread_me,
         sum(unread = 1 AND is_active = 1 AND (assignee_member_id IS NOT NULL OR assignee_bot_id IS NOT NULL)) AS unread_assigned,
         sum(unread = 1 AND is_active = 1) AS unread_open,
         sum(unread = 1 AND is_active = 0) AS unread_closed
       FROM conversations`,
    ),
    contactHits: db.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ? LIMIT ?)'),
    // Few hits: sort them. Many: walk the newest-first index and stop at the page (the hits are a lookup set).
    contactsFewHits: db.prepare<[string, number, number], { data: string }>(
      `SELECT c.data FROM contacts_fts JOIN contacts c ON c.rowid = contacts_fts.rowid WHERE contacts_fts MATCH ?
       ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`,
    ),
    contactsManyHits: db.prepare<[string, number, number], { data: string }>(
      `SELECT c.data FROM contacts c INDEXED BY contacts_created WHERE c.rowid IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ?)
       ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`,
    ),
    contactsNewest: db.prepare<[number, number], { data: string }>('SELECT data FROM contacts ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?'),
  };
}

export type WorkspaceStatements = ReturnType<typeof prepareStatements>;
