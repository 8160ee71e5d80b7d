/** SQL of a send's target: the conversation with its contact and its number, in one statement. */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

/**
 * The conversation, its contact and the WhatsApp number it is on (each null when missing), in one statement where
 * a send used three round trips, two of them one after the other.
 */
export async function conversationTarget(ex: Executor, workspaceId: string, conversationId: string) {
  const [row] = await ex
    .select({ conversation: t.conversations, contact: t.contacts, account: t.whatsappAccounts })
    .from(t.conversations)
    .leftJoin(t.contacts, and(eq(t.contacts.workspaceId, workspaceId), eq(t.contacts.id, t.conversations.contactId)))
    .leftJoin(t.whatsappAccounts, and(eq(t.whatsappAccounts.workspaceId, workspaceId), eq(t.whatsappAccounts.id, t.conversations.whatsappAccountId)))
    .where(and(eq(t.conversations.workspaceId, workspaceId), eq(t.conversations.id, conversationId)))
    .limit(1);
  return row ?? null;
}
