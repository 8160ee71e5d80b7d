/**
 * Campaign lifecycle: deploy (validated by the editor's own validator), the states
 * (oneTime: draft -> [scheduled ->] inProgress -> completed; recurring: draft -> active; both may be paused
 * and resumed), steps locked once deployed (the name stays editable), delete (stops the runs first), and the
 * due work of scheduled starts and timed resumes (schedules.ts: the `campaigns.due` job and the runner's sweep).
 */
import type { z } from 'zod';
import { type CampaignProblem, validateCampaign } from '../../shared/campaign-validation';
import { limits } from '../../shared/limits';
import type { CampaignDraftRfInstance } from '../../shared/schemas/campaign-canvas';
import type { Campaign, CampaignStatus } from '../../shared/schemas/entities';
import type { DeployCampaignBody, PatchCampaignBody, PauseCampaignBody } from '../../shared/schemas/requests';
import type { Executor } from '../db/client';
import { HttpError, badRequest, conflict, notFound } from '../errors';
import type { WorkspaceContext } from '../services/caller';
import { clearHalt } from '../repositories/campaign-halts';
import * as runs from '../repositories/campaign-runs';
import * as campaignRows from '../repositories/campaigns';
import { toCampaign } from '../repositories/resources';
import type { ServiceDeps } from '../services/context';
import { campaignUpdated } from './events';
import { hashTriggerKey, keyHint, newTriggerKey } from './trigger-keys';
import type { CampaignRunner } from './runner';
import { runDueSchedules, startOneTime } from './schedules';

export const CAMPAIGNS_DUE_JOB = 'campaigns.due';

/** Everything of a canvas but its layout: what "editing the steps" changes. */
const stepsOf = (rf: CampaignDraftRfInstance) =>
  JSON.stringify({
    nodes: rf.nodes.map((n) => ({ id: n.id, type: n.type, data: n.data })).sort((a, b) => a.id.localeCompare(b.id)),
    edges: rf.edges.map((e) => [e.source, e.target]).sort(),
  });

export function campaignService(d: ServiceDeps, runner: CampaignRunner) {

  async function locked(tx: Executor, ctx: { workspaceId: string }, id: string) {
    const row = await campaignRows.lockCampaign(tx, ctx.workspaceId, id);
    if (!row) throw notFound('Campaign not found');
    return row;
  }

  /** Every problem that keeps the campaign's canvas from deploying (the same validator as the editor's). */
  async function problemsOf(tx: Executor, row: campaignRows.CampaignRow): Promise<CampaignProblem[]> {
    const rf = row.rfInstance as CampaignDraftRfInstance;
    const templateIds = rf.nodes.flatMap((n) => (n.type === 'SendWhatsappNode' && n.data.whatsappTemplateId ? [n.data.whatsappTemplateId] : []));
    return validateCampaign(row.type, rf, await campaignRows.validationFacts(tx, row.workspaceId, templateIds));
  }

  async function queueDue(at: Date): Promise<void> {
    await d.jobs.send(CAMPAIGNS_DUE_JOB, {}, { singletonKey: `${CAMPAIGNS_DUE_JOB}:${at.getTime()}`, startAfter: at });
  }

  async function setPaused(ctx: { workspaceId: string }, id: string, pause: boolean, resumeAt: Date | null): Promise<Campaign> {
    const row = await d.db.transaction(async (tx) => {
      const c = await locked(tx, ctx, id);
      const running: CampaignStatus = c.type === 'oneTime' ? 'inProgress' : 'active';
      if (pause && c.status !== running) throw conflict(`Only a running campaign can be paused; this one is ${c.status}`);
      if (!pause && c.status !== 'paused') throw conflict(`Only a paused campaign can be resumed; this one is ${c.status}`);
      await runs.setRunsStatus(tx, c.workspaceId, c.id, pause ? 'running' : 'paused', pause ? 'paused' : 'running');
      // Claimed recipients go back to pending: a batch under way checks its claim before each send and stops.
      if (pause) await runs.releaseClaimed(tx, c.workspaceId, c.id);
      if (!pause) await clearHalt(tx, c.workspaceId, c.id);
      const updated = await campaignRows.updateCampaign(tx, c.workspaceId, c.id, { status: pause ? 'paused' : running, resumeAt });
      await campaignUpdated(tx, updated);
      return updated;
    });
    if (resumeAt) await queueDue(resumeAt);
    if (!pause) runner.wake();
    return toCampaign(row);
  }

  return {
    async deploy(ctx: WorkspaceContext, id: string, body: z.output<typeof DeployCampaignBody> | undefined) {
      const startAt = body?.startAt ? new Date(body.startAt) : null;
      let triggerKey: string | undefined;
      const row = await d.db.transaction(async (tx) => {
        const c = await locked(tx, ctx, id);
        if (c.status !== 'draft') throw conflict(`This campaign is ${c.status}; only a draft can be deployed`);
        const problems = await problemsOf(tx, c);
        if (problems.length > 0) throw new HttpError(400, problems.map((p) => p.message), { problems });
        const base = { deployedRf: c.rfInstance, deployedAt: new Date() };
        if (c.type === 'recurring') {
          if (startAt) throw badRequest('Only a one-time campaign can be scheduled');
          if (!c.triggerKeyHash) triggerKey = newTriggerKey();
          const keys = triggerKey ? { triggerKeyHash: hashTriggerKey(triggerKey), triggerKeyHint: keyHint(triggerKey) } : {};
          return campaignRows.updateCampaign(tx, c.workspaceId, c.id, { ...base, ...keys, status: 'active' });
        }
        if (startAt && startAt.getTime() > Date.now() + 1000) {
          if (startAt.getTime() > Date.now() + limits.campaign.maxScheduleDays * 86_400_000) {
            throw badRequest(`A campaign can be scheduled at most ${limits.campaign.maxScheduleDays} days ahead`);
          }
          return campaignRows.updateCampaign(tx, c.workspaceId, c.id, { ...base, status: 'scheduled', scheduledAt: startAt });
        }
        return startOneTime(tx, await campaignRows.updateCampaign(tx, c.workspaceId, c.id, base));
      });
      await d.db.transaction((tx) => campaignUpdated(tx, row));
      if (row.status === 'scheduled') await queueDue(row.scheduledAt!);
      runner.wake();
      return { success: true as const, status: row.status, ...(triggerKey && { triggerKey }) };
    },

    pause: (ctx: WorkspaceContext, id: string, body: z.output<typeof PauseCampaignBody> | undefined) => {
      const resumeAt = body?.resumeAt ? new Date(body.resumeAt) : null;
      if (resumeAt && resumeAt.getTime() <= Date.now()) throw badRequest('resumeAt must be in the future');
      return setPaused(ctx, id, true, resumeAt);
    },
    resume: (ctx: WorkspaceContext, id: string) => setPaused(ctx, id, false, null),

    async cancelSchedule(ctx: WorkspaceContext, id: string): Promise<Campaign> {
      const row = await d.db.transaction(async (tx) => {
        const c = await locked(tx, ctx, id);
        if (c.status !== 'scheduled') throw conflict(`Only a scheduled campaign can be cancelled; this one is ${c.status}`);
        const updated = await campaignRows.updateCampaign(tx, c.workspaceId, c.id, { status: 'draft', scheduledAt: null, deployedRf: null, deployedAt: null });
        await campaignUpdated(tx, updated);
        return updated;
      });
      return toCampaign(row);
    },

    /** Name always; the canvas only while a draft (a deployed campaign's layout may still move, its steps not). */
    async patch(ctx: WorkspaceContext, id: string, body: z.output<typeof PatchCampaignBody>): Promise<Campaign> {
      const row = await d.db.transaction(async (tx) => {
        const c = await locked(tx, ctx, id);
        if (body.rfInstance && c.status !== 'draft' && stepsOf(body.rfInstance) !== stepsOf(c.rfInstance as CampaignDraftRfInstance)) {
          throw conflict(`This campaign is ${c.status}: its steps cannot be edited once deployed (its name can)`);
        }
        const updated = await campaignRows.updateCampaign(tx, c.workspaceId, c.id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.rfInstance !== undefined && { rfInstance: body.rfInstance }),
        });
        if (body.name !== undefined && body.name !== c.name) await campaignUpdated(tx, updated);
        return updated;
      });
      return toCampaign(row);
    },

    /** Stops its runs, then deletes the campaign with its recipients and logs. */
    async remove(ctx: WorkspaceContext, id: string) {
      const ok = await d.db.transaction(async (tx) => {
        await locked(tx, ctx, id);
        return campaignRows.cancelRunsAndDelete(tx, ctx.workspaceId, id);
      });
      if (!ok) throw notFound('Campaign not found');
      return { success: true as const };
    },

    async rotateTriggerKey(ctx: WorkspaceContext, id: string) {
      const key = newTriggerKey();
      await d.db.transaction(async (tx) => {
        const c = await locked(tx, ctx, id);
        if (c.type !== 'recurring') throw conflict('Only a recurring campaign has a trigger key');
        await campaignRows.updateCampaign(tx, c.workspaceId, c.id, { triggerKeyHash: hashTriggerKey(key), triggerKeyHint: keyHint(key) });
      });
      return { triggerKey: key, triggerKeyHint: keyHint(key) };
    },

    /** The `campaigns.due` job: starts the scheduled campaigns and resumes the paused ones whose time has come. */
    async runDue(): Promise<void> {
      if ((await runDueSchedules(d)) > 0) runner.wake();
    },
  };
}
export type CampaignService = ReturnType<typeof campaignService>;
