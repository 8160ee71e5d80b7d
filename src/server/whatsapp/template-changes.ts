/**
 * What Meta changes on an approved template: `template_category_update` (impending, a day ahead: the category
 * it is moving to and when; completed: it has moved) and `message_template_quality_update` (its quality score).
 * Each lands on the template of every number of that WABA and goes out as `template.status`; an older webhook
 * (by `entry.time`) never undoes a newer one.
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { TemplateCategory } from '../../shared/schemas/entities';
import type { Database, Executor } from '../db/client';
import type { StoredCategoryChange } from '../db/schema';
import * as ch from '../repositories/channel';
import { appendEvent } from '../repositories/event-log';
import { toTemplate } from '../repositories/resources';
import { setTemplateCategoryChange, setTemplateQuality } from '../repositories/template-changes';
import type { TemplateRow } from '../repositories/whatsapp-templates';
import { type FieldChange, type FieldHandler, eachChange } from './inbound-pipeline';

const TemplateRef = {
  message_template_id: z.union([z.number(), z.string()]).transform(String),
  message_template_name: z.string().optional(),
  message_template_language: z.string().optional(),
};
const Seconds = z.coerce.number().int().positive();

/** Impending: `correct_category` is coming at `category_update_timestamp`, `new_category` is still current. */
const ImpendingValue = z.looseObject({ ...TemplateRef, correct_category: TemplateCategory, new_category: TemplateCategory, category_update_timestamp: Seconds.optional() });
const CompletedValue = z.looseObject({ ...TemplateRef, previous_category: TemplateCategory, new_category: TemplateCategory });
const CategoryUpdateValue = z.union([ImpendingValue, CompletedValue]);
type Impending = z.infer<typeof ImpendingValue>;
type Completed = z.infer<typeof CompletedValue>;

const QualityUpdateValue = z.looseObject({
  ...TemplateRef,
  new_quality_score: z.string().min(1),
  previous_quality_score: z.string().optional(),
});

interface TemplateChangesDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

/** When Meta made the change: the entry's time, else when the delivery arrived. */
const whenOf = (c: FieldChange) => c.at ?? new Date(c.receivedAt);

function categoryChangeOf(v: Impending | Completed, at: Date): StoredCategoryChange {
  if ('correct_category' in v && typeof v.correct_category === 'string') {
    const i = v as Impending;
    const effective = i.category_update_timestamp ? new Date(i.category_update_timestamp * 1000) : null;
    return { state: 'impending', previousCategory: i.new_category, newCategory: i.correct_category, effectiveAt: effective?.toISOString() ?? null };
  }
  const c = v as Completed;
  return { state: 'completed', previousCategory: c.previous_category, newCategory: c.new_category, effectiveAt: at.toISOString() };
}

/** A field whose every change names a template by Meta's id and is applied to it by `apply`. */
function templateChanges<V extends { message_template_id: string }>(
  d: TemplateChangesDeps,
  field: string,
  schema: z.ZodType<V>,
  apply: (tx: Executor, tpl: TemplateRow, value: V, at: Date) => Promise<TemplateRow | null>,
): FieldHandler {
  async function handleOne(change: FieldChange): Promise<void> {
    const parsed = schema.safeParse(change.value);
    if (!parsed.success) {
      d.log.warn({ field, issues: parsed.error.issues.slice(0, 5) }, 'malformed template update dropped');
      return;
    }
    const accounts = await ch.accountsByWaba(d.db.db, change.wabaId);
    const templates = await ch.templatesByMetaId(d.db.db, accounts.map((a) => a.id), parsed.data.message_template_id);
    if (templates.length === 0) d.log.info({ field, templateId: parsed.data.message_template_id }, 'update for a template Parley does not know dropped');
    for (const tpl of templates) {
      await d.db.transaction(async (tx) => {
        const row = await apply(tx, tpl, parsed.data, whenOf(change));
        if (row) await appendEvent(tx, tpl.workspaceId, 'template.status', { template: toTemplate(row) });
      });
    }
  }
  return { field, handle: eachChange(handleOne) };
}

/** The `template_category_update` field. */
export function templateCategoryUpdates(d: TemplateChangesDeps): FieldHandler {
  return templateChanges(d, 'template_category_update', CategoryUpdateValue, (tx, tpl, v, at) =>
    setTemplateCategoryChange(tx, tpl.workspaceId, tpl.id, categoryChangeOf(v, at), at),
  );
}

/** The `message_template_quality_update` field. */
export function templateQualityUpdates(d: TemplateChangesDeps): FieldHandler {
  return templateChanges(d, 'message_template_quality_update', QualityUpdateValue, (tx, tpl, v, at) =>
    setTemplateQuality(tx, tpl.workspaceId, tpl.id, { score: v.new_quality_score, previousScore: v.previous_quality_score ?? null, at }),
  );
}
