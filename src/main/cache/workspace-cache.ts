// The offline copy of one workspace for one user: writes from the sync (REST pages, stream events) and the
// reads the renderer makes through IPC when the server cannot be reached. Rows keep their REST wire shape as
// JSON (`data`), so what the renderer reads offline is what it would have read online.
import type {
  Attribute,
  Contact,
  Conversation,
  ConversationCounts,
  ConversationDetail,
  ConversationListEntry,
  MemberProfile,
  Message,
  WorkspaceEvent,
} from '../../shared';
import { workspaceMigrations } from './migrations';
import { inOwnConnection, openSqlite, type SqliteDatabase } from './sqlite';
import { type ConversationRow, prepareStatements, type WorkspaceStatements } from './workspace-statements';
import { activityOf, conversationOnly, ftsQuery, type LiveChatTab, type Page, tabWhere, toListEntry, toPage } from './workspace-rows';

export { type LiveChatTab, type Page } from './workspace-rows';

/** What applying something changed (the `cache.changed` event and the notifier read it). */
export interface CacheChange {
  conversationIds: string[];
  contacts: boolean;
}

/** From this many FTS hits on, a contact search walks the newest-first index instead of sorting the hits. */
const MANY_HITS = 1000;

export class WorkspaceCache {
  readonly db: SqliteDatabase;
  private readonly statements: WorkspaceStatements;
  /**
   * The contacts the running full sync has written (from its contact pages): the conversation pages carry each
   * conversation's contact again, and those rows are not made or written twice. Null outside a full sync.
   */
  private syncContacts: { gen: number; ids: Set<string> } | null = null;
  /** openBatch began the transaction that is open */
  private batchOpen = false;

  constructor(readonly file: string) {
    this.db = openSqlite(file, workspaceMigrations);
    this.statements = prepareStatements(this.db);
    // A first sync that did not finish (the app quit or crashed) left the FTS triggers standing still.
    if (this.getMeta('ftsDeferred')) this.rebuildSearch();
    // Fold what the sync wrote into the file now, so the first stream events after it do not pay for it.
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  // ---------- meta ----------

  getMeta(key: string): string | null {
    return this.statements.getMeta.get(key)?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.statements.setMeta.run(key, value);
  }

  get lastSeq(): number {
    return Number(this.getMeta('lastSeq') ?? 0);
  }

  get lastSyncedAt(): string | null {
    return this.getMeta('lastSyncedAt');
  }

  /** The caller's member id (for the `me` tab and "assigned to me"). */
  get memberId(): string | null {
    return this.getMeta('memberId');
  }

  // ---------- writes ----------

  /**
   * Starts a full sync: rows it does not see again are removed by finishFullSync. Into an empty cache (the
   * first sync) the FTS triggers stand still and finishFullSync builds both indexes once, which is several
   * times cheaper than keeping them current row by row; a reload of a filled cache keeps them current, so
   * search goes on working meanwhile.
   */
  beginFullSync(): number {
    const gen = Number(this.getMeta('syncGen') ?? 0) + 1;
    this.db.transaction(() => {
      this.setMeta('syncGen', String(gen));
      const empty = !this.db.prepare('SELECT 1 FROM contacts LIMIT 1').get() && !this.db.prepare('SELECT 1 FROM messages LIMIT 1').get();
      if (empty) {
        this.setMeta('ftsDeferred', '1');
        // this sync fills an empty cache: nothing older to sweep at its end (see finishFullSync)
        this.setMeta('fillingGen', String(gen));
      }
    })();
    this.syncContacts = { gen, ids: new Set() };
    return gen;
  }

  get currentGen(): number {
    return Number(this.getMeta('syncGen') ?? 0);
  }

  finishFullSync(gen: number, at: string): void {
    // A sync that began on an empty cache has nothing older to sweep: stream events wait in the sync's buffer
    // until it has finished, so every row here is this sync's (an earlier attempt that failed half-way left rows,
    // so the next attempt did not begin empty and sweeps). Skipping the sweep saves a scan of
    // every table on the first sync.
    const first = this.getMeta('fillingGen') === String(gen);
    this.syncContacts = null;
    this.db.transaction(() => {
      this.db.prepare("DELETE FROM meta WHERE key = 'fillingGen'").run();
      if (!first) {
        for (const table of ['contacts', 'conversations', 'attributes', 'members']) {
          this.db.prepare(`DELETE FROM ${table} WHERE sync_gen < ?`).run(gen);
        }
        this.db.prepare('DELETE FROM messages WHERE conversation_id NOT IN (SELECT id FROM conversations)').run();
      }
      this.setMeta('lastSyncedAt', at);
    })();
    if (this.getMeta('ftsDeferred')) this.rebuildSearch();
    // Fold what the sync wrote into the file now, so the first stream events after it do not pay for it.
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  /**
   * Builds both FTS indexes from their tables and sets the triggers going again, in one transaction on a
   * connection of its own (see inOwnConnection). Until it commits, searches find nothing new; an interruption
   * leaves the flag set and the next start rebuilds.
   */
  private rebuildSearch(): void {
    inOwnConnection(this.file, (db) => {
      db.prepare("DELETE FROM meta WHERE key = 'ftsDeferred'").run();
      db.exec("INSERT INTO contacts_fts (contacts_fts) VALUES ('rebuild'); INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');");
    });
  }

  /**
   * Opens a write transaction the next writes share until commitBatch, also across awaits: a full sync writes
   * each page as it arrives (the objects it was parsed into die young instead of waiting for a batch) and still
   * commits about every thousand rows. Whatever else writes meanwhile joins it; committing early loses nothing.
   */
  openBatch(): void {
    if (this.db.inTransaction) return;
    this.statements.begin.run();
    this.batchOpen = true;
  }

  commitBatch(): void {
    if (!this.batchOpen) return;
    this.batchOpen = false;
    // a failed statement can have rolled the transaction back already
    if (this.db.inTransaction) this.statements.commit.run();
  }

  /** Runs `write` in the open batch, or in a transaction of its own (a savepoint inside the batch would copy pages). */
  private write(write: () => void): void {
    if (this.batchOpen && this.db.inTransaction) write();
    else this.db.transaction(write)();
  }

  putContacts(contacts: readonly Contact[], gen = this.currentGen): void {
    this.write(() => {
      for (const c of contacts) this.putContact(c, gen);
    });
  }

  private putContact(c: Contact, gen: number): void {
    const { id } = c;
    this.statements.upsertContact.run(
      id, c.createdAt, c.name, c.phoneNumber, c.username ?? null, c.userId ?? null, c.email, c.city, c.tags.join(' '), JSON.stringify(c), gen,
    );
    if (this.syncContacts?.gen === gen) this.syncContacts.ids.add(id);
  }

  /**
   * A page of the conversation list. Its contacts are written unless this sync already wrote them from the
   * contact list (a change between the two pages arrives as a stream event, applied after the sync).
   */
  putConversations(entries: readonly ConversationListEntry[], gen = this.currentGen): void {
    this.write(() => {
      const written = this.syncContacts?.gen === gen ? this.syncContacts.ids : null;
      for (const entry of entries) {
        const known = written ? written.has(entry.contactId) : this.statements.contactGen.get(entry.contactId)?.sync_gen === gen;
        if (!known) this.putContact(entry.Contact, gen);
        this.putConversation(entry, entry.lastMessage, entry.unread, gen);
      }
    });
  }

  private putConversation(c: Conversation, lastMessage: Message | null | undefined, unread: boolean | undefined, gen: number): void {
    const lastJson = lastMessage ? JSON.stringify(lastMessage) : null;
    const unreadFlag = unread ? 1 : 0;
    this.statements.upsertConversation.run(
      c.id, c.contactId, c.isActive ? 1 : 0, c.assigneeMemberId, c.assigneeBotId, activityOf(c), unreadFlag, JSON.stringify(conversationOnly(c)),
      lastJson, lastMessage?.createdAt ?? null, gen, unread === undefined ? null : unreadFlag,
    );
    // the row was just given this last message: only the message itself is left to store
    if (lastMessage) this.statements.upsertMessage.run(lastMessage.id, lastMessage.conversationId, lastMessage.createdAt, lastMessage.text, lastJson!);
  }

  putMessages(messages: readonly Message[]): void {
    this.db.transaction(() => {
      for (const m of messages) this.putMessage(m);
    })();
  }

  private putMessage(m: Message): void {
    const data = JSON.stringify(m);
    this.statements.upsertMessage.run(m.id, m.conversationId, m.createdAt, m.text, data);
    this.statements.setLastMessage.run({ id: m.id, conversationId: m.conversationId, createdAt: m.createdAt, data });
  }

  /**
   * A contact deleted on the server took its conversations and messages with it: the cache drops all three (and
   * their search entries, through the FTS triggers). Answers the conversations removed, for the screens showing them.
   */
  private removeContact(contactId: string): string[] {
    const conversations = this.statements.conversationsOfContact.all(contactId).map((c) => c.id);
    for (const id of conversations) {
      this.statements.deleteMessagesOf.run(id);
      this.statements.deleteConversation.run(id);
    }
    this.statements.deleteContact.run(contactId);
    return conversations;
  }

  putAttributes(attributes: readonly Attribute[], gen = this.currentGen): void {
    this.write(() => {
      for (const a of attributes) this.statements.upsertAttribute.run(a.id, JSON.stringify(a), gen);
    });
  }

  putMembers(members: readonly MemberProfile[], gen = this.currentGen): void {
    this.write(() => {
      for (const m of members) this.statements.upsertMember.run(m.id, JSON.stringify(m), gen);
    });
  }

  setUnread(conversationId: string, unread: boolean): boolean {
    return this.statements.markUnread.run({ id: conversationId, unread: unread ? 1 : 0 }).changes > 0;
  }

  /**
   * Applies stream events in one transaction and records the last sequence (so a reconnect resumes after
   * it). Events at or below the recorded sequence are skipped (a replay after a reconnect).
   */
  applyEvents(events: readonly WorkspaceEvent[], viewing: string | null = null): CacheChange {
    const changed = new Set<string>();
    let contacts = false;
    this.db.transaction(() => {
      let last = this.lastSeq;
      const gen = this.currentGen;
      for (const event of events) {
        if (event.seq <= last) continue;
        last = event.seq;
        switch (event.type) {
          case 'message.created':
          case 'message.status': {
            const { message } = event.payload;
            this.putMessage(message);
            if (event.type === 'message.created' && message.creator === 'user' && message.conversationId !== viewing) {
              this.setUnread(message.conversationId, true);
            }
            changed.add(message.conversationId);
            break;
          }
          case 'conversation.opened': {
            const entry = event.payload.conversation;
            this.putContact(entry.Contact, gen);
            this.putConversation(entry, entry.lastMessage, entry.unread ?? (entry.lastMessage?.creator === 'user'), gen);
            changed.add(entry.id);
            contacts = true;
            break;
          }
          case 'conversation.updated': {
            const c = event.payload.conversation;
            const updated = this.statements.updateConversation.run({
              id: c.id,
              contactId: c.contactId,
              isActive: c.isActive ? 1 : 0,
              assigneeMemberId: c.assigneeMemberId,
              assigneeBotId: c.assigneeBotId,
              activityAt: activityOf(c),
              data: JSON.stringify(conversationOnly(c)),
            });
            // Not cached yet (opened before the first sync saw it): keep it if its contact is known.
            if (updated.changes === 0 && this.statements.contact.get(c.contactId)) this.putConversation(c, null, undefined, gen);
            changed.add(c.id);
            break;
          }
          case 'contact.created':
          case 'contact.updated':
            this.putContact(event.payload.contact, gen);
            contacts = true;
            break;
          case 'contact.deleted':
            for (const id of this.removeContact(event.payload.contactId)) changed.add(id);
            contacts = true;
            break;
          default:
            // imports and templates are not cached
            break;
        }
      }
      this.setMeta('lastSeq', String(last));
    })();
    return { conversationIds: [...changed], contacts };
  }

  /** Records a sequence without an event to apply (the stream's first event after a full sync). */
  setLastSeq(seq: number): void {
    this.setMeta('lastSeq', String(seq));
  }

  // ---------- reads ----------

  listConversations(tab: LiveChatTab, opts: { search?: string; limit?: number; cursor?: string } = {}): Page<ConversationListEntry> {
    const limit = opts.limit ?? 50;
    const offset = Number(opts.cursor ?? 0);
    const match = ftsQuery(opts.search);
    const where = [tabWhere(tab)];
    if (match) where.push('v.contact_id IN (SELECT c2.id FROM contacts_fts JOIN contacts c2 ON c2.rowid = contacts_fts.rowid WHERE contacts_fts MATCH @match)');
    const rows = this.db
      .prepare<Record<string, unknown>, ConversationRow>(
        `SELECT v.data, c.data AS contact, v.last_message, v.unread FROM conversations v JOIN contacts c ON c.id = v.contact_id
         WHERE ${where.join(' AND ')} ORDER BY v.activity_at DESC, v.id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ me: this.memberId ?? '', match, limit: limit + 1, offset });
    return toPage(rows.map(toListEntry), limit, offset);
  }

  counts(): ConversationCounts {
    const row = this.statements.counts.get({ me: this.memberId ?? '' })!;
    const n = (key: string) => row[key] ?? 0;
    return {
      me: n('me'),
      assigned: n('assigned'),
      open: n('open'),
      closed: n('closed'),
      unread: { me: n('unread_me'), assigned: n('unread_assigned'), open: n('unread_open'), closed: n('unread_closed') },
    };
  }

  /** Unread chats assigned to me plus unread unassigned open chats: the badge (the kinds that notify). */
  badgeCount(): number {
    const { unread } = this.counts();
    return unread.me + (unread.open - unread.assigned);
  }

  conversation(conversationId: string): ConversationListEntry | null {
    const row = this.statements.conversation.get(conversationId);
    return row && row.contact ? toListEntry(row) : null;
  }

  conversationDetail(conversationId: string, messageLimit = 500): ConversationDetail | null {
    const entry = this.conversation(conversationId);
    if (!entry) return null;
    const { Contact: contact, lastMessage: _last, unread: _unread, ...conversation } = entry;
    const messages = this.statements.messagesOf.all(conversationId, messageLimit).map((r) => JSON.parse(r.data) as Message);
    return { ...conversation, Contact: contact, Message: messages, ConversationEvent: [] };
  }

  searchContacts(opts: { search?: string; limit?: number; cursor?: string } = {}): Page<Contact> {
    const limit = opts.limit ?? 50;
    const offset = Number(opts.cursor ?? 0);
    const match = ftsQuery(opts.search);
    const { contactHits, contactsFewHits, contactsManyHits, contactsNewest } = this.statements;
    let rows: { data: string }[];
    if (!match) rows = contactsNewest.all(limit + 1, offset);
    else {
      // Sorting n hits costs n row reads; walking the index costs about (page / share of hits) entries. A
      // cheap count of up to MANY_HITS hits tells which is less.
      const many = contactHits.get(match, MANY_HITS)!.n === MANY_HITS;
      rows = (many ? contactsManyHits : contactsFewHits).all(match, limit + 1, offset);
    }
    return toPage(rows.map((r) => JSON.parse(r.data) as Contact), limit, offset);
  }

  searchMessages(search: string, limit = 50): Message[] {
    const match = ftsQuery(search);
    if (!match) return [];
    return this.db
      .prepare<[string, number], { data: string }>(
        `SELECT m.data FROM messages_fts JOIN messages m ON m.rowid = messages_fts.rowid WHERE messages_fts MATCH ?
         ORDER BY m.created_at DESC, m.id DESC LIMIT ?`,
      )
      .all(match, limit)
      .map((r) => JSON.parse(r.data) as Message);
  }

  /** The conversations with the newest activity (the sync fetches their messages). */
  recentConversationIds(limit: number): string[] {
    return this.db
      .prepare<[number], { id: string }>('SELECT id FROM conversations ORDER BY activity_at DESC, id DESC LIMIT ?')
      .all(limit)
      .map((r) => r.id);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
