/**
 * SQL of a campaign's own row as the engine moves it: locked for a state change (one at a time), due ones for
 * the scheduler, completed when its runs are over, found by its trigger key; and what deploy checks.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export type CampaignRow = typeof t.campaigns.$inferSelect;

/** One-time campaigns whose every run is over: inProgress -> completed. */
export async function completeCampaigns(ex: Executor, campaignIds: string[]): Promise<CampaignRow[]> {
  if (campaignIds.length === 0) return [];
  const c = t.campaigns;
  return ex
    .update(c)
    .set({ status: 'completed' })
    .where(
      and(
        inArray(c.id, campaignIds),
        eq(c.status, 'inProgress'),
        eq(c.type, 'oneTime'),
        sql`not exists (select 1 from campaign_runs run where run.campaign_id = ${c.id} and run.status in ('running', 'paused'))`,
      ),
    )
    .returning();
}

/**
 * Campaigns whose time has come, locked for the caller's transaction (another process skips them): scheduled
 * ones due to start, paused ones due to resume. The caller moves each on in the same transaction.
 */
export async function lockDueCampaigns(ex: Executor, kind: 'scheduled' | 'resume', limit: number): Promise<CampaignRow[]> {
  const c = t.campaigns;
  return ex
    .select()
    .from(c)
    .where(kind === 'scheduled' ? and(eq(c.status, 'scheduled'), sql`${c.scheduledAt} <= now()`) : and(eq(c.status, 'paused'), sql`${c.resumeAt} <= now()`))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * A campaign row locked for the caller's transaction (state changes are decided one at a time). `share`: for a
 * trigger call, which queues only while the campaign stays active (a pause waits for it, or it sees the pause).
 */
export async function lockCampaign(ex: Executor, workspaceId: string, id: string, mode: 'update' | 'share' = 'update'): Promise<CampaignRow | null> {
  const c = t.campaigns;
  const [row] = await ex.select().from(c).where(and(eq(c.workspaceId, workspaceId), eq(c.id, id))).for(mode).limit(1);
  return row ?? null;
}

export async function updateCampaign(ex: Executor, workspaceId: string, id: string, set: Partial<typeof t.campaigns.$inferInsert>): Promise<CampaignRow> {
  const c = t.campaigns;
  // A patch that names nothing is the row as it is (an UPDATE needs a column to set).
  const [row] = Object.values(set).some((v) => v !== undefined)
    ? await ex.update(c).set(set).where(and(eq(c.workspaceId, workspaceId), eq(c.id, id))).returning()
    : await ex.select().from(c).where(and(eq(c.workspaceId, workspaceId), eq(c.id, id)));
  return row;
}

/** A recurring campaign by the sha256 of its trigger key (any workspace: the key names it). */
export async function campaignByKeyHash(ex: Executor, hash: string): Promise<CampaignRow | null> {
  const [row] = await ex.select().from(t.campaigns).where(eq(t.campaigns.triggerKeyHash, hash)).limit(1);
  return row ?? null;
}

export async function campaignsByIds(ex: Executor, ids: string[]): Promise<Map<string, CampaignRow>> {
  if (ids.length === 0) return new Map();
  const rows = await ex.select().from(t.campaigns).where(inArray(t.campaigns.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/** What deploy's validator needs to know of the workspace (ids, and the templates the canvas names). */
export async function validationFacts(ex: Executor, workspaceId: string, templateIds: string[]) {
  const uuids = templateIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  // One after another: at deploy `ex` is a transaction, whose client runs one statement at a time.
  const segments = await ex.select({ id: t.segments.id }).from(t.segments).where(eq(t.segments.workspaceId, workspaceId));
  const accounts = await ex.select({ id: t.whatsappAccounts.id }).from(t.whatsappAccounts).where(eq(t.whatsappAccounts.workspaceId, workspaceId));
  const attributes = await ex.select({ id: t.attributes.id }).from(t.attributes).where(eq(t.attributes.workspaceId, workspaceId));
  const templates = uuids.length
    ? await ex.select().from(t.whatsappTemplates).where(and(eq(t.whatsappTemplates.workspaceId, workspaceId), inArray(t.whatsappTemplates.id, uuids)))
    : [];
  return {
    segmentIds: segments.map((x) => x.id),
    whatsappAccountIds: accounts.map((x) => x.id),
    attributeIds: attributes.map((x) => x.id),
    templates: templates.map((x) => ({ ...x, components: x.components as { type: string }[] })),
  };
}

export async function cancelRunsAndDelete(ex: Executor, workspaceId: string, campaignId: string): Promise<boolean> {
  await ex
    .update(t.campaignRuns)
    .set({ status: 'cancelled', finishedAt: new Date() })
    .where(and(eq(t.campaignRuns.workspaceId, workspaceId), eq(t.campaignRuns.campaignId, campaignId), inArray(t.campaignRuns.status, ['running', 'paused'])));
  const rows = await ex.delete(t.campaigns).where(and(eq(t.campaigns.workspaceId, workspaceId), eq(t.campaigns.id, campaignId))).returning({ id: t.campaigns.id });
  return rows.length > 0;
}
