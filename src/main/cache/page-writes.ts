// The workspace cache's writes of rows made by page-rows.ts (on the page thread during a full sync, in this
// thread for stream events): only statements bound, no parsing or JSON left.
import type { ContactRow, PageKind, PageRows, conversationRows } from './page-rows';
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
