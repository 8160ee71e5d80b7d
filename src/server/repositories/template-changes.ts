/**
 * SQL of what Meta changes on a template after review: its quality score and its category. Each change keeps
 * when Meta made it, so an older webhook redelivered or arriving late never undoes a newer one.
 */
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';
import type { StoredCategoryChange } from '../db/schema';
import type { TemplateRow } from './whatsapp-templates';

/** Sets the template's quality score as of `at`; null when a newer score is stored already. */
export async function setTemplateQuality(
  ex: Executor,
  workspaceId: string,
  id: string,
  q: { score: string; previousScore: string | null; at: Date },
): Promise<TemplateRow | null> {
  const w = t.whatsappTemplates;
  const [row] = await ex
    .update(w)
    .set({ qualityScore: q.score, previousQualityScore: q.previousScore, qualityAt: q.at })
    .where(and(eq(w.workspaceId, workspaceId), eq(w.id, id), or(isNull(w.qualityAt), lte(w.qualityAt, q.at))))
    .returning();
  return row ?? null;
}

/**
 * Records a category change as of `at`; a completed one also moves the template to its new category. Null when
 * a newer change is stored already.
 */
export async function setTemplateCategoryChange(
  ex: Executor,
  workspaceId: string,
  id: string,
  change: StoredCategoryChange,
  at: Date,
): Promise<TemplateRow | null> {
  const w = t.whatsappTemplates;
  const [row] = await ex
    .update(w)
    .set({ categoryChange: change, categoryChangeAt: at, ...(change.state === 'completed' && { category: change.newCategory }) })
    .where(and(eq(w.workspaceId, workspaceId), eq(w.id, id), or(isNull(w.categoryChangeAt), lte(w.categoryChangeAt, at))))
    .returning();
  return row ?? null;
}
