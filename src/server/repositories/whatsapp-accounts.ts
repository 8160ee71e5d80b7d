/**
 * SQL of `whatsapp_accounts` for the WhatsApp channel: scoped by workspace_id, except the two look-ups that find
 * which workspace a webhook belongs to (by phone_number_id or WABA id): they are the tenant resolution.
 */
import { and, eq, or } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import { isUuid } from './pagination';

export type AccountRow = typeof t.whatsappAccounts.$inferSelect;

/** Tenant resolution of a webhook: phone_number_id is unique across workspaces. */
export async function accountByPhoneNumberId(ex: Executor, phoneNumberId: string): Promise<AccountRow | null> {
  const [row] = await ex.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.phoneNumberId, phoneNumberId)).limit(1);
  return row ?? null;
}

/** Tenant resolution of a template webhook: every account (any workspace) on that WABA. */
export async function accountsByWaba(ex: Executor, wabaAccountId: string): Promise<AccountRow[]> {
  return ex.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.wabaAccountId, wabaAccountId));
}

/** The workspace's first connected account (template media uploads act through it). */
export async function firstAccount(ex: Executor, workspaceId: string): Promise<AccountRow | null> {
  const [row] = await ex
    .select()
    .from(t.whatsappAccounts)
    .where(eq(t.whatsappAccounts.workspaceId, workspaceId))
    .orderBy(t.whatsappAccounts.createdAt, t.whatsappAccounts.id)
    .limit(1);
  return row ?? null;
}

export async function account(ex: Executor, workspaceId: string, id: string): Promise<AccountRow | null> {
  // Ids arrive from request bodies as any text; one that is no uuid names no account (PostgreSQL would refuse it).
  if (!isUuid(id)) return null;
  const [row] = await ex
    .select()
    .from(t.whatsappAccounts)
    .where(and(eq(t.whatsappAccounts.workspaceId, workspaceId), eq(t.whatsappAccounts.id, id)))
    .limit(1);
  return row ?? null;
}

export async function accountsOfWorkspace(ex: Executor, workspaceId: string): Promise<AccountRow[]> {
  return ex
    .select()
    .from(t.whatsappAccounts)
    .where(eq(t.whatsappAccounts.workspaceId, workspaceId))
    .orderBy(t.whatsappAccounts.createdAt, t.whatsappAccounts.id);
}

/** The id of the workspace's account named by its id or its WABA id (a bot's `wabaAccountId`), or null. */
export async function accountIdByIdOrWaba(ex: Executor, workspaceId: string, idOrWaba: string): Promise<string | null> {
  const a = t.whatsappAccounts;
  const [row] = await ex
    .select({ id: a.id })
    .from(a)
    .where(and(eq(a.workspaceId, workspaceId), isUuid(idOrWaba) ? or(eq(a.id, idOrWaba), eq(a.wabaAccountId, idOrWaba)) : eq(a.wabaAccountId, idOrWaba)))
    .limit(1);
  return row?.id ?? null;
}
