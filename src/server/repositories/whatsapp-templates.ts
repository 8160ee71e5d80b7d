/**
 * SQL of `whatsapp_templates` by name or Meta id, and their statuses.
 */
import { and, eq, inArray, isNull, lte, ne, or } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export type TemplateRow = typeof t.whatsappTemplates.$inferSelect;

/** Templates known by Meta's id on any of these accounts; the status webhook changes them. */
export async function templatesByMetaId(ex: Executor, accountIds: string[], metaId: string): Promise<TemplateRow[]> {
  if (accountIds.length === 0) return [];
  return ex
    .select()
    .from(t.whatsappTemplates)
    .where(and(inArray(t.whatsappTemplates.whatsappAccountId, accountIds), eq(t.whatsappTemplates.whatsappTemplateId, metaId)));
}

/**
 * Applies a review of WhatsApp's decided at `at` (when known). Null (nothing changed, nothing to announce) when
 * the template already has that status, or a review decided later than `at`: Meta redelivers old reviews for days.
 */
export async function setTemplateStatus(ex: Executor, workspaceId: string, id: string, status: string, at?: Date): Promise<TemplateRow | null> {
  const w = t.whatsappTemplates;
  const [row] = await ex
    .update(w)
    .set(at ? { status, statusAt: at } : { status })
    .where(
      and(
        eq(w.workspaceId, workspaceId),
        eq(w.id, id),
        ne(w.status, status),
        at ? or(isNull(w.statusAt), lte(w.statusAt, at)) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

export async function templateByName(
  ex: Executor,
  workspaceId: string,
  whatsappAccountId: string,
  name: string,
  language: string,
): Promise<TemplateRow | null> {
  const w = t.whatsappTemplates;
  const [row] = await ex
    .select()
    .from(w)
    .where(and(eq(w.workspaceId, workspaceId), eq(w.whatsappAccountId, whatsappAccountId), eq(w.name, name), eq(w.language, language)))
    .limit(1);
  return row ?? null;
}

export async function templateByMetaId(
  ex: Executor,
  workspaceId: string,
  whatsappAccountId: string,
  metaId: string,
): Promise<TemplateRow | null> {
  const w = t.whatsappTemplates;
  const [row] = await ex
    .select()
    .from(w)
    .where(and(eq(w.workspaceId, workspaceId), eq(w.whatsappAccountId, whatsappAccountId), eq(w.whatsappTemplateId, metaId)))
    .limit(1);
  return row ?? null;
}

export async function updateTemplate(
  ex: Executor,
  workspaceId: string,
  id: string,
  values: Partial<typeof t.whatsappTemplates.$inferInsert>,
): Promise<TemplateRow | null> {
  const [row] = await ex
    .update(t.whatsappTemplates)
    .set(values)
    .where(and(eq(t.whatsappTemplates.workspaceId, workspaceId), eq(t.whatsappTemplates.id, id)))
    .returning();
  return row ?? null;
}

/** Removes every template of a WhatsApp account (the account is being removed). */
export async function removeTemplatesOfAccount(ex: Executor, workspaceId: string, whatsappAccountId: string): Promise<void> {
  await ex
    .delete(t.whatsappTemplates)
    .where(and(eq(t.whatsappTemplates.workspaceId, workspaceId), eq(t.whatsappTemplates.whatsappAccountId, whatsappAccountId)));
}

/** Every template of one WhatsApp account (a sync matches Meta's list against them). */
export async function templatesOfAccount(ex: Executor, workspaceId: string, whatsappAccountId: string): Promise<TemplateRow[]> {
  const w = t.whatsappTemplates;
  return ex.select().from(w).where(and(eq(w.workspaceId, workspaceId), eq(w.whatsappAccountId, whatsappAccountId)));
}
