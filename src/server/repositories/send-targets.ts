/** SQL of sends' targets: conversations with their contacts and numbers, or contacts and numbers, a group per statement. */
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';
import { isUuid } from './pagination';
import { tableRow } from './table-rows';

type ConversationRow = typeof t.conversations.$inferSelect;
type ContactRow = typeof t.contacts.$inferSelect;
type AccountRow = typeof t.whatsappAccounts.$inferSelect;

export interface ConversationTarget {
  conversation: ConversationRow;
  contact: ContactRow | null;
  account: AccountRow | null;
}

/** Ids as PostgreSQL writes them (lower case): the caller looks its rows up by them. Text that is no uuid names nothing. */
export const canonicalId = (id: string) => id.toLowerCase();
const idArray = (ids: string[]) =>
  sql`array(select jsonb_array_elements_text(${JSON.stringify([...new Set(ids.filter(isUuid).map(canonicalId))])}::jsonb)::uuid)`;

/**
 * The conversations among `conversationIds`, each with its contact and the WhatsApp number it is on (null when
 * missing), in one statement for a group of sends. Raw SQL read through `tableRow`: three whole rows per send
 * built by the query builder cost more CPU than the statement itself.
 */
export async function conversationTargets(ex: Executor, workspaceId: string, conversationIds: string[]): Promise<Map<string, ConversationTarget>> {
  if (conversationIds.length === 0) return new Map();
  const rows = rowsOf<{ conversation: Record<string, unknown>; contact: Record<string, unknown> | null; account: Record<string, unknown> | null }>(
    await ex.execute(sql`
      select row_to_json(c) as conversation, row_to_json(k) as contact, row_to_json(a) as account
        from conversations c
        left join contacts k on k.workspace_id = c.workspace_id and k.id = c.contact_id
        left join whatsapp_accounts a on a.workspace_id = c.workspace_id and a.id = c.whatsapp_account_id
       where c.workspace_id = ${workspaceId}::uuid and c.id = any(${idArray(conversationIds)})`),
  );
  return new Map(
    rows.map((r) => {
      const conversation = tableRow(t.conversations, r.conversation);
      return [
        conversation.id,
        { conversation, contact: r.contact ? tableRow(t.contacts, r.contact) : null, account: r.account ? tableRow(t.whatsappAccounts, r.account) : null },
      ];
    }),
  );
}

/** The contacts among `contactIds` and the numbers among `accountIds` of a workspace, in one statement. */
export async function contactTargets(
  ex: Executor,
  workspaceId: string,
  contactIds: string[],
  accountIds: string[],
): Promise<{ contacts: Map<string, ContactRow>; accounts: Map<string, AccountRow> }> {
  const rows = rowsOf<{ contact: Record<string, unknown> | null; account: Record<string, unknown> | null }>(
    await ex.execute(sql`
      select row_to_json(k) as contact, null::json as account from contacts k
       where k.workspace_id = ${workspaceId}::uuid and k.id = any(${idArray(contactIds)})
      union all
      select null::json, row_to_json(a) from whatsapp_accounts a
       where a.workspace_id = ${workspaceId}::uuid and a.id = any(${idArray(accountIds)})`),
  );
  const contacts = new Map<string, ContactRow>();
  const accounts = new Map<string, AccountRow>();
  for (const r of rows) {
    if (r.contact) {
      const contact = tableRow(t.contacts, r.contact);
      contacts.set(contact.id, contact);
    } else if (r.account) {
      const account = tableRow(t.whatsappAccounts, r.account);
      accounts.set(account.id, account);
    }
  }
  return { contacts, accounts };
}
