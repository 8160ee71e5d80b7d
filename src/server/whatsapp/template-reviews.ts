/**
 * The `message_template_status_update` webhook field: Meta's review of a template (approved, rejected, paused...)
 * moves the template of every number of that WABA; a template Parley does not know starts a sync of its numbers.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import * as ch from '../repositories/channel';
import { toTemplate } from '../repositories/resources';
import { appendEvent } from '../repositories/event-log';
import { type FieldChange, type FieldHandler, eachChange } from './inbound-pipeline';
import { TemplateStatusValue } from './webhook-payload';

export interface TemplateReviewsDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** A review named a template none of these accounts knows: their templates are synced (its failure retries). */
  afterUnknownTemplate?: (accounts: ch.AccountRow[]) => Promise<unknown>;
}

export function templateReviews(d: TemplateReviewsDeps): FieldHandler {
  async function review({ wabaId, value, at }: FieldChange): Promise<void> {
    const parsed = TemplateStatusValue.safeParse(value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'malformed template status update dropped');
      return;
    }
    const v = parsed.data;
    const accounts = await ch.accountsByWaba(d.db.db, wabaId);
    const templates = await ch.templatesByMetaId(d.db.db, accounts.map((a) => a.id), v.message_template_id);
    for (const tpl of templates) {
      await d.db.transaction(async (tx) => {
        const row = await ch.setTemplateStatus(tx, tpl.workspaceId, tpl.id, v.event, at);
        if (row) await appendEvent(tx, tpl.workspaceId, 'template.status', { template: toTemplate(row) });
      });
    }
    if (templates.length === 0) {
      d.log.info({ templateId: v.message_template_id }, 'status update for a template Parley does not know: syncing its numbers');
      if (accounts.length > 0) await d.afterUnknownTemplate?.(accounts);
    }
  }

  return {
    field: 'message_template_status_update',
    handle: eachChange(review),
  };
}
