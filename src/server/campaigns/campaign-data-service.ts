/**
 * What a campaign produced and what feeds it (issue 17 items 5 to 7): results (counts and a timeline), log
 * lines paged and filtered, the CSV export streamed, retarget, the recurring trigger (records -> contacts ->
 * a run), opt-out by an agent, and the workspace's campaign settings.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { z } from 'zod';
import type { CampaignDraftRfInstance, CampaignOutcome } from '../../shared/schemas/campaign-canvas';
import type { Campaign, CampaignLogEntry, CampaignResults, CampaignSettings, OutboundResult } from '../../shared/schemas/entities';
import type { CampaignSettingsBody, RetargetCampaignBody } from '../../shared/schemas/requests';
import { conflict, notFound } from '../errors';
import type { CampaignKeyContext, WorkspaceContext } from '../services/caller';
import * as runs from '../repositories/campaign-runs';
import { countsOf, emptyCounts, timelineOf } from '../repositories/campaign-results';
import { upsertContactsByPhone } from '../repositories/inbound-batch-rows';
import { decodeCursor, encodeCursor, iso, isoOrNull } from '../repositories/pagination';
import * as r from '../repositories/resources';
import { defaultCountryOf } from '../repositories/workspaces';
import type { ServiceDeps } from '../services/context';
import { csvRow, csvRows } from '../services/csv';
import { readDeployedCanvas } from './deployed-canvas';
import type { CampaignRunner } from './runner';
import { ownValue } from '../../shared/own-value';

const toLogEntry = (l: runs.LogRow): CampaignLogEntry => ({
  id: l.id,
  createdAt: iso(l.createdAt),
  phoneNumber: l.phoneNumber,
  templateName: l.templateName,
  messageStatus: l.messageStatus,
  reason: l.reason,
  campaignId: l.campaignId,
  contactId: l.contactId,
  stepId: l.stepId,
  wamid: l.waMessageId,
  deliveryState: l.deliveryState,
  errorCode: l.errorCode,
  updatedAt: iso(l.updatedAt),
  repliedAt: isoOrNull(l.repliedAt),
});

const csvColumns = ['createdAt', 'phoneNumber', 'templateName', 'messageStatus', 'deliveryState', 'reason', 'errorCode', 'wamid', 'repliedAt'] as const;

/** Keys of a trigger record that name the contact's phone number and name when no mapping row does. */
const phoneKeys = ['phone', 'phoneNumber', 'phone_number', 'mobile'];
const nameKeys = ['name', 'fullName', 'full_name'];

export function campaignDataService(d: ServiceDeps, runner: CampaignRunner) {
  const ex = () => d.db.db;
  async function campaign(ctx: { workspaceId: string }, id: string) {
    const row = await r.campaigns.get(ex(), ctx.workspaceId, id);
    if (!row) throw notFound('Campaign not found');
    return row;
  }

  return {
    async results(ctx: WorkspaceContext, id: string): Promise<CampaignResults> {
      await campaign(ctx, id);
      const [counts, timeline] = await Promise.all([countsOf(ex(), ctx.workspaceId, [id]), timelineOf(ex(), ctx.workspaceId, id)]);
      return { counts: counts.get(id) ?? emptyCounts(), timeline };
    },

    async logs(ctx: WorkspaceContext, id: string, q: { limit?: number; cursor?: string; status?: CampaignOutcome }) {
      await campaign(ctx, id);
      const limit = q.limit ?? 50;
      const rows = await runs.logsPage(ex(), ctx.workspaceId, id, { limit: limit + 1, after: q.cursor ? decodeCursor(q.cursor) : undefined, outcome: q.status });
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items: items.map(toLogEntry), nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
    },

    /** The log lines as CSV, a page at a time from the database straight to the response. */
    async exportCsv(ctx: WorkspaceContext, id: string, status: CampaignOutcome | undefined, reply: FastifyReply): Promise<void> {
      const row = await campaign(ctx, id);
      const workspaceId = ctx.workspaceId;
      async function* lines() {
        yield csvRow(csvColumns);
        let after: { at: Date; id: string } | undefined;
        for (;;) {
          const page = await runs.logsPage(ex(), workspaceId, id, { limit: 1000, after, outcome: status });
          if (page.length === 0) return;
          yield csvRows(page.map((l) => csvColumns.map((c) => (toLogEntry(l) as Record<string, unknown>)[c])));
          const last = page[page.length - 1];
          after = { at: last.createdAt, id: last.id };
        }
      }
      const filename = `${row.name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'campaign'}-logs.csv`;
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`);
      await reply.send(Readable.from(lines()));
    },

    /** A new one-time draft whose trigger targets exactly the recipients of this campaign with the outcome. */
    async retarget(ctx: WorkspaceContext, id: string, body: z.output<typeof RetargetCampaignBody>): Promise<Campaign> {
      const source = await campaign(ctx, id);
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

    /**
     * POST /outbound/{campaignId}: each record upserts its contact by phone (E.164 in the workspace's default
     * country) with its mapped attributes, and the chain runs for it (a run per call). A bad phone rejects
     * that record only. 409 unless the campaign is active (a paused one queues nothing).
     */
    async trigger(ctx: CampaignKeyContext, id: string, records: Record<string, string>[]): Promise<z.input<typeof OutboundResult>> {
      const c = await campaign(ctx, id);
      if (c.type !== 'recurring') throw conflict('Only a recurring campaign is triggered by records');
      if (c.status !== 'active') throw conflict(`This campaign is ${c.status}; only an active campaign can be triggered`);
      const canvas = readDeployedCanvas(c.deployedRf as CampaignDraftRfInstance);
      const [country, attributeNames] = await Promise.all([defaultCountryOf(ex(), ctx.workspaceId), runs.attributeNamesOf(ex(), ctx.workspaceId)]);
      const results: z.input<typeof OutboundResult>['results'] = [];
      const people: { index: number; phoneNumber: string; name: string | null; attributes: Record<string, string> }[] = [];
      records.forEach((record, index) => {
        const attributes: Record<string, string> = {};
        let phone: string | undefined;
        let name: string | null = null;
        for (const m of canvas.attributeMapping) {
          const value = ownValue(record, m.objectKey);
          if (value === undefined) continue;
          if (m.attributeId === 'phoneNumber') phone = value;
          else if (m.attributeId === 'name') name = value;
          else if (attributeNames.has(m.attributeId)) attributes[attributeNames.get(m.attributeId)!] = value;
        }
        phone ??= phoneKeys.map((k) => record[k]).find((v) => v !== undefined);
        name ??= nameKeys.map((k) => record[k]).find((v) => v !== undefined) ?? null;
        const parsed = phone ? parsePhoneNumberFromString(phone, country as CountryCode) : undefined;
        if (!parsed?.isValid()) {
          results.push({ index, status: 'rejected', contactId: null, reason: phone ? `Not a valid phone number: ${phone}` : 'The record has no phone number' });
          return;
        }
        people.push({ index, phoneNumber: parsed.number, name: name?.trim() || null, attributes });
      });
      const first = canvas.first;
      const contactIds = await d.db.transaction(async (tx) => {
        const { byPhone } = await upsertContactsByPhone(tx, ctx.workspaceId, people);
        await runs.mergeContactAttributes(tx, ctx.workspaceId, people.map((p) => ({ id: byPhone.get(p.phoneNumber)!.id, attributes: p.attributes })));
        const ids = people.map((p) => byPhone.get(p.phoneNumber)!.id);
        if (first && ids.length > 0) {
          const run = await runs.insertRun(tx, { workspaceId: ctx.workspaceId, campaignId: id, snapshotDone: true });
          await runs.insertRecipients(tx, { workspaceId: ctx.workspaceId, runId: run.id, campaignId: id, contactIds: [...new Set(ids)], stepId: first });
        }
        return ids;
      });
      people.forEach((p, i) => results.push({ index: p.index, status: 'queued', contactId: contactIds[i], reason: null }));
      results.sort((a, b) => a.index - b.index);
      runner.wake();
      return { success: true, queued: people.length, rejected: records.length - people.length, results };
    },

    async setOptedOut(ctx: WorkspaceContext, contactId: string, optedOut: boolean): Promise<void> {
      await runs.setOptedOut(ex(), ctx.workspaceId, [contactId], optedOut);
    },

    async settings(ctx: WorkspaceContext): Promise<CampaignSettings> {
      return runs.campaignSettingsOf(ex(), ctx.workspaceId);
    },
    async patchSettings(ctx: WorkspaceContext, body: z.output<typeof CampaignSettingsBody>): Promise<CampaignSettings> {
      await runs.setCampaignSettings(ex(), ctx.workspaceId, {
        ...(body.optOutKeywords && { optOutKeywords: [...new Set(body.optOutKeywords.map((k) => k.toUpperCase()))] }),
        ...(body.timeZone && { timeZone: body.timeZone }),
        ...(body.optOutConfirmation !== undefined && { optOutConfirmation: body.optOutConfirmation }),
      });
      return runs.campaignSettingsOf(ex(), ctx.workspaceId);
    },
  };
}
