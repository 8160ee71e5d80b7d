/**
 * Account-level refusals halt at once every running campaign they concern, not only the one that met them: a
 * template's own refusals (132015 paused, 132016 disabled) every campaign sending that template, the others
 * (the number restricted or locked, its token, payment, policy, rate ...) every campaign sending from that
 * number. Each shows the code and Meta's words; its recipients not sent yet stay pending and resume sends them.
 */
import type { Executor } from '../db/client';
import * as halts from '../repositories/campaign-halts';
import type { CampaignRow } from '../repositories/campaigns';
import { templateHaltCodes } from '../messaging/send-outcomes';
import type { CanvasOf } from './canvas-cache';
import { campaignUpdated } from './events';
import type { Metrics } from '../metrics/metrics';

/** A refusal that halts: where it was met (campaign, number, template) and Meta's code and words. */
export interface Halt {
  campaignId: string;
  whatsappAccountId: string;
  templateId: string;
  code: number;
  reason: string;
}

/** A halt as applied: what it stopped (the campaigns it paused now, none already paused). */
export interface AppliedHalt extends Halt {
  scope: 'number' | 'template';
  campaigns: CampaignRow[];
}

export const haltScope = (code: number): AppliedHalt['scope'] => (templateHaltCodes.has(code) ? 'template' : 'number');

/** Whether a deployed campaign sends from the halted number (or the halted template). */
function concerns(canvasOf: CanvasOf, row: CampaignRow, halt: Halt): boolean {
  const scope = haltScope(halt.code);
  return (canvasOf(row)?.steps ?? []).some(
    (s) => s.kind === 'send' && (scope === 'template' ? s.whatsappTemplateId === halt.templateId : s.whatsappAccountId === halt.whatsappAccountId),
  );
}

/**
 * Inside the batch's transaction: one halt per cause (number or template), each pausing the campaign that met it
 * and every running campaign it concerns, with `campaign.updated`. Answers the halts that paused something.
 */
export async function applyHalts(tx: Executor, workspaceId: string, met: Halt[], canvasOf: CanvasOf): Promise<AppliedHalt[]> {
  if (met.length === 0) return [];
  const causes = new Map<string, Halt>();
  for (const h of met) {
    const key = haltScope(h.code) === 'template' ? `template:${h.templateId}` : `number:${h.whatsappAccountId}`;
    if (!causes.has(key)) causes.set(key, h);
  }
  const running = await halts.runningCampaignsOf(tx, workspaceId);
  const out: AppliedHalt[] = [];
  for (const cause of causes.values()) {
    const ids = new Set([cause.campaignId, ...running.filter((row) => concerns(canvasOf, row, cause)).map((row) => row.id)]);
    const paused = await halts.haltCampaigns(tx, workspaceId, [...ids].map((campaignId) => ({ campaignId, code: cause.code, reason: cause.reason })));
    for (const row of paused) await campaignUpdated(tx, row);
    if (paused.length > 0) out.push({ ...cause, scope: haltScope(cause.code), campaigns: paused });
  }
  return out;
}

/** Counts the campaigns the committed halts paused, by Meta's code and scope (an alert watches it). */
export function countHalts(metrics: Pick<Metrics, 'campaignHalts'> | undefined, applied: AppliedHalt[]): void {
  for (const h of applied) metrics?.campaignHalts.inc({ code: String(h.code), scope: h.scope }, h.campaigns.length);
}
