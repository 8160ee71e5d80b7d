/**
 * What a campaign produced: its counts and timeline, and a retarget (a new one-time draft for the recipients of
 * one outcome).
 */
import type { z } from 'zod';
import type { CampaignDraftRfInstance } from '../../shared/schemas/campaign-canvas';
import type { Campaign, CampaignResults } from '../../shared/schemas/entities';
import type { RetargetCampaignBody } from '../../shared/schemas/requests';
import { countsOf, emptyCounts, timelineOf } from '../repositories/campaign-results';
import { billableByCategory } from '../repositories/message-pricing';
import * as r from '../repositories/resources';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';
import { campaignOf } from './campaign-lookup';
import { readDeployedCanvas } from './deployed-canvas';

export function campaignResultsService(d: Pick<ServiceDeps, 'db'>) {
  const ex = () => d.db.db;
  return {
    async results(ctx: WorkspaceContext, id: string): Promise<CampaignResults> {
      await campaignOf(ex(), ctx.workspaceId, id);
      const [counts, timeline, billable] = await Promise.all([
        countsOf(ex(), ctx.workspaceId, [id]),
        timelineOf(ex(), ctx.workspaceId, id),
        billableByCategory(ex(), ctx.workspaceId, id),
      ]);
      return { counts: counts.get(id) ?? emptyCounts(), timeline, billable };
    },

    /** A new one-time draft whose trigger targets exactly the recipients of this campaign with the outcome. */
    async retarget(ctx: WorkspaceContext, id: string, body: z.output<typeof RetargetCampaignBody>): Promise<Campaign> {
      const source = await campaignOf(ex(), ctx.workspaceId, id);
      const rf = (source.deployedRf ?? source.rfInstance) as CampaignDraftRfInstance;
      const trigger = { id: 'trigger', type: 'OneTimeTriggerNode' as const, position: { x: 0, y: 0 }, deletable: true,
        data: { label: 'Retarget', segmentId: '', retarget: { campaignId: id, outcome: body.outcome, ...(body.errorCode !== undefined && { errorCode: body.errorCode }) } } };
      // The steps of the source campaign after its trigger, so "send it again to those who failed" is one click.
      const steps = rf.nodes.filter((n) => n.type === 'SendWhatsappNode' || n.type === 'DelayNode');
      const order = readDeployedCanvas(rf).steps.map((s) => s.id);
      const edges = order.map((stepId, i) => ({ id: `e-${i}`, source: i === 0 ? 'trigger' : order[i - 1], target: stepId }));
      const row = await r.campaigns.insert(ex(), {
        workspaceId: ctx.workspaceId,
        name: body.name ?? `${source.name} (retarget: ${body.outcome})`,
        type: 'oneTime',
        rfInstance: { nodes: [trigger, ...steps.filter((n) => order.includes(n.id))], edges, viewport: { x: 0, y: 0, zoom: 1 } },
        memberId: ctx.caller.member.id,
      });
      return r.toCampaign(row);
    },
  };
}
