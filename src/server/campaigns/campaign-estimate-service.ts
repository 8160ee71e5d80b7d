/**
 * What a campaign will cost before it is deployed: the contacts its trigger targets now, by the country of
 * their phone numbers (libphonenumber-js), priced per send step at its template's category with the
 * workspace's rate card; and what the admin should know first (a template that became marketing, no rate card).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { CampaignDraftRfInstance } from '../../shared/schemas/campaign-canvas';
import type { CampaignEstimate, RateCardRate } from '../../shared/schemas/entities';
import { audienceOf } from '../repositories/campaign-audience';
import { iso } from '../repositories/pagination';
import { audiencePrefixes, rateCardOf } from '../repositories/rate-cards';
import * as r from '../repositories/resources';
import type { TemplateRow } from '../repositories/whatsapp-templates';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';
import { campaignOf } from './campaign-lookup';
import { readDeployedCanvas } from './deployed-canvas';

type Category = 'marketing' | 'utility' | 'authentication';
/** Prices are summed in millionths, so a total of many sends has no floating-point drift. */
const micro = 1_000_000;

const day = (d: string | null) => (d ? d.slice(0, 10) : 'a date Meta did not give');

/** A sentence for a template Meta moved, or is moving, to marketing. */
function marketingWarning(tpl: TemplateRow): string | null {
  const c = tpl.categoryChange;
  if (!c || c.newCategory !== 'MARKETING' || c.previousCategory === 'MARKETING') return null;
  return c.state === 'completed'
    ? `Template "${tpl.name}" became MARKETING on ${day(c.effectiveAt)} (it was ${c.previousCategory ?? 'another category'}): it is priced and limited as marketing now`
    : `Template "${tpl.name}" becomes MARKETING on ${day(c.effectiveAt)} (it is ${c.previousCategory ?? 'another category'} until then): sends after that are priced and limited as marketing`;
}

/** The recipients per country (null: a number libphonenumber-js cannot place). */
async function recipientsByCountry(ex: ServiceDeps['db']['db'], workspaceId: string, rf: CampaignDraftRfInstance) {
  const audience = await audienceOf(ex, workspaceId, readDeployedCanvas(rf));
  const byCountry = new Map<string | null, number>();
  if (!audience) return byCountry;
  for (const g of await audiencePrefixes(ex, audience)) {
    const country = (g.sample && parsePhoneNumberFromString(g.sample)?.country) || null;
    byCountry.set(country, (byCountry.get(country) ?? 0) + g.recipients);
  }
  return byCountry;
}

/** Cost of every step for `n` recipients of one rate row, in millionths; null when a step has no price. */
function costOf(rate: RateCardRate | undefined, categories: (Category | null)[], n: number): number | null {
  if (!rate) return null;
  let sum = 0;
  for (const c of categories) {
    const price = c ? rate[c] : null;
    if (price === null) return null;
    sum += Math.round(price * micro) * n;
  }
  return sum;
}

export function campaignEstimateService(d: Pick<ServiceDeps, 'db'>) {
  const ex = () => d.db.db;
  return {
    async estimate(ctx: WorkspaceContext, id: string): Promise<CampaignEstimate> {
      const ws = ctx.workspaceId;
      const campaign = await campaignOf(ex(), ws, id);
      const rf = campaign.rfInstance as CampaignDraftRfInstance;
      const sends = readDeployedCanvas(rf).steps.flatMap((s) => (s.kind === 'send' ? [s] : []));
      const templates = await Promise.all(sends.map((s) => (s.whatsappTemplateId ? r.whatsappTemplates.get(ex(), ws, s.whatsappTemplateId) : null)));
      const steps = sends.map((s, i) => ({
        stepId: s.id,
        templateId: templates[i]?.id ?? null,
        templateName: templates[i]?.name ?? null,
        category: templates[i]?.category ?? null,
      }));
      const warnings = [...new Set(templates.flatMap((t) => (t ? [marketingWarning(t)] : [])).filter((w): w is string => w !== null))];
      const card = await rateCardOf(ex(), ws);
      if (!card) warnings.push('No rate card yet: an admin uploads Meta\'s rate card in Settings → Pricing to see what this campaign costs');
      if (campaign.type === 'recurring') {
        return { recipients: null, steps, byCountry: [], costs: [], unpriced: 0, rateCard: card && { fileName: card.fileName, uploadedAt: iso(card.uploadedAt) }, warnings };
      }
      const categories = steps.map((s) => (s.category ? (s.category.toLowerCase() as Category) : null));
      const fallback = card?.rates.find((x) => x.country === null);
      const totals = new Map<string, number>();
      let unpriced = 0;
      let recipients = 0;
      const byCountry = [...(await recipientsByCountry(ex(), ws, rf))].map(([country, n]) => {
        recipients += n;
        const rate = card?.rates.find((x) => x.country === country && country !== null) ?? fallback;
        const cost = costOf(rate, categories, n);
        if (cost === null || !rate) unpriced += n;
        else totals.set(rate.currency, (totals.get(rate.currency) ?? 0) + cost);
        return { country, market: rate?.market ?? null, recipients: n, currency: rate?.currency ?? null, cost: cost === null ? null : cost / micro };
      });
      byCountry.sort((a, b) => b.recipients - a.recipients || String(a.country).localeCompare(String(b.country)));
      if (card && unpriced > 0) warnings.push(`${unpriced} recipients have no price on the rate card (no row for their country and no "Other" row)`);
      return {
        recipients,
        steps,
        byCountry,
        costs: [...totals].map(([currency, amount]) => ({ currency, amount: amount / micro })),
        unpriced,
        rateCard: card && { fileName: card.fileName, uploadedAt: iso(card.uploadedAt) },
        warnings,
      };
    },
  };
}
