// The workspace cache's writes of rows made by page-rows.ts (on the page thread during a full sync, in this
// thread for stream events): only statements bound, no parsing or JSON left.
import type { ContactRow, PageKind, PageRows, conversationRows } from './page-rows';
import type { SqliteDatabase } from './sqlite';
import type { WorkspaceStatements } from './workspace-statements';

export function writeContact(st: WorkspaceStatements, row: ContactRow, gen: number): void {
  st.upsertContact.run({ ...row, gen });
}

export function writeConversation(st: WorkspaceStatements, rows: ReturnType<typeof conversationRows>, gen: number): void {
  st.upsertConversation.run({ ...rows.conversation, gen });
  // the row was just given this last message: only the message itself is left to store
  if (rows.message) st.upsertMessage.run(rows.message);
}

export const writePageRows: { [K in PageKind]: (st: WorkspaceStatements, rows: PageRows<K>, gen: number) => void } = {
  attributes(st, rows, gen) {
    for (const row of rows) st.upsertAttribute.run(row.id, row.data, gen);
  },
  members(st, rows, gen) {
    for (const row of rows) st.upsertMember.run(row.id, row.data, gen);
  },
  contacts(st, rows, gen) {
    for (const row of rows) writeContact(st, row, gen);
  },
  /**
   * A page of the conversation list. Its contacts are written unless this sync already wrote them from the
   * contact list (a change between the two pages arrives as a stream event, applied after the sync).
   */
  conversations(st, rows, gen) {
    for (const row of rows) {
      if (st.contactGen.get(row.contact.id)?.sync_gen !== gen) writeContact(st, row.contact, gen);
      writeConversation(st, row, gen);
    }
  },
};

/**
 * A full sync's pages, each written as it arrives, into a transaction left open between pages and committed every
 * `rowsPerCommit` rows: the page thread parses the next page while one is written, and there are as few commits
 * as when pages were gathered first (one commit per page of 200 made the writes about 1.4 times the floor). Each
 * page is a savepoint of its own: a page that fails to write leaves none of its rows.
 */
export class PageBatch {
  private pending = 0;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly st: WorkspaceStatements,
    private readonly rowsPerCommit: number,
  ) {}

  write<K extends PageKind>(kind: K, rows: PageRows<K>, gen: number): void {
    if (!this.db.inTransaction) this.db.exec('BEGIN');
    this.db.transaction(() => writePageRows[kind](this.st, rows, gen))();
    this.pending += rows.length;
    if (this.pending >= this.rowsPerCommit) this.commit();
  }

  commit(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.pending = 0;
  }
}
