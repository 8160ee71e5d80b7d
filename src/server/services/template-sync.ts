/**
 * Template sync: the templates a WhatsApp number has at Meta, listed in Parley. Runs when a
 * number is connected, on demand (POST /workspace/{id}/whatsapp-templates/sync) and when the review webhook names
 * a template Parley does not know. Matches Meta's id first, then name + language, so nothing is ever doubled;
 * a known template gets Meta's status, id and category and keeps Parley's own data (components as submitted,
 * header media, author, creation time). Meta's listing is paged; the Graph client follows `paging.next`.
 */
import { TemplateComponent, TemplateCategory } from '../../shared/schemas/entities';
import * as ch from '../repositories/channel';
import * as r from '../repositories/resources';
import type { Channel } from '../whatsapp/channel';
import type { GraphClient } from '../whatsapp/graph-client';
import type { GraphTemplate } from '../whatsapp/graph-types';
import { appendEvent } from '../repositories/event-log';
import type { ServiceDeps } from './context';
import { isUniqueViolation } from '../db/client';

export interface SyncCounts {
  updated: number;
  imported: number;
}

type Local = ch.TemplateRow;

export function templateSync(d: ServiceDeps, channel: Channel, graph: GraphClient) {
  const ex = () => d.db.db;

  /** A known template brought in line with Meta; true when something changed (and an event went out). */
  async function update(account: ch.AccountRow, local: Local, g: GraphTemplate): Promise<boolean> {
    const category = TemplateCategory.safeParse(g.category);
    const changes = {
      ...(local.status !== g.status && { status: g.status, statusAt: new Date() }),
      ...(local.whatsappTemplateId !== g.id && { whatsappTemplateId: g.id }),
      ...(category.success && category.data !== local.category && { category: category.data }),
    };
    if (Object.keys(changes).length === 0) return false;
    await d.db.transaction(async (tx) => {
      const row = await ch.updateTemplate(tx, account.workspaceId, local.id, changes);
      if (row) await appendEvent(tx, account.workspaceId, 'template.status', { template: r.toTemplate(row) });
    });
    return true;
  }

  /** A template made elsewhere (WhatsApp Manager, another tool): added when its components fit Parley's shape. */
  async function importOne(account: ch.AccountRow, g: GraphTemplate, memberId: string): Promise<boolean> {
    const components = TemplateComponent.array().min(1).safeParse(g.components);
    const category = TemplateCategory.safeParse(g.category);
    if (!components.success || !category.success) {
      d.log.info({ template: g.name }, 'template at WhatsApp not imported: its components do not fit Parley');
      return false;
    }
    try {
      await d.db.transaction(async (tx) => {
        const row = await r.whatsappTemplates.insert(tx, {
          workspaceId: account.workspaceId,
          whatsappAccountId: account.id,
          name: g.name,
          language: g.language,
          category: category.data,
          components: components.data,
          status: g.status,
          statusAt: new Date(),
          whatsappTemplateId: g.id,
          memberId,
        });
        await appendEvent(tx, account.workspaceId, 'template.status', { template: r.toTemplate(row) });
      });
      return true;
    } catch (err) {
      // Another sync of the same number (a webhook and the button at once) added it first.
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /**
   * One number's templates from Meta into Parley. `memberId` authors the imported ones (the member who asked,
   * or the one who connected the number). Throws the Graph API's error when Meta cannot be read.
   */
  async function syncAccount(account: ch.AccountRow, memberId: string = account.memberId): Promise<SyncCounts> {
    const remote = await graph.listTemplates(channel.credsOf(account));
    const locals = await ch.templatesOfAccount(ex(), account.workspaceId, account.id);
    const byMetaId = new Map(locals.filter((l) => l.whatsappTemplateId).map((l) => [l.whatsappTemplateId!, l]));
    const byName = new Map(locals.map((l) => [`${l.name}\u0000${l.language}`, l]));
    const counts: SyncCounts = { updated: 0, imported: 0 };
    for (const g of remote) {
      const local = byMetaId.get(g.id) ?? byName.get(`${g.name}\u0000${g.language}`);
      if (local) {
        if (await update(account, local, g)) counts.updated++;
      } else if (await importOne(account, g, memberId)) {
        counts.imported++;
      }
    }
    return counts;
  }

  return {
    syncAccount,
    /**
     * After a review webhook for a template Parley does not know: the numbers on that WABA are synced, so a
     * template made in WhatsApp Manager shows up. A failure is logged; the webhook itself is done.
     */
    async afterUnknownTemplate(accounts: ch.AccountRow[]): Promise<void> {
      for (const account of accounts) {
        try {
          const counts = await syncAccount(account);
          d.log.info({ account: account.id, ...counts }, 'templates synced after a review of an unknown template');
        } catch (err) {
          d.log.warn({ account: account.id, err: (err as Error).message }, 'template sync after a review webhook failed');
        }
      }
    },
  };
}
export type TemplateSync = ReturnType<typeof templateSync>;
