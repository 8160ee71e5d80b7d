// Addition: what messages cost. The rate card an admin uploads (Meta's per-message prices by market), the
// estimate of a campaign before deploy, and the billable messages of a campaign's results by category.
import * as z from '../../zod';
import { Id, Timestamp } from '../common';

/** One market of the rate card; `country` null is the row for every country without one of its own. */
export const RateCardRate = z.object({
  market: z.string(),
  country: z.string().nullable(),
  currency: z.string(),
  marketing: z.number().nullable(),
  utility: z.number().nullable(),
  authentication: z.number().nullable(),
});
export type RateCardRate = z.infer<typeof RateCardRate>;

export const RateCard = z.object({
  fileName: z.string(),
  uploadedAt: Timestamp,
  memberId: Id,
  rates: z.array(RateCardRate),
  /** Markets of the file that name no country Parley knows (Meta's regions such as "Rest of Africa"). */
  ignoredMarkets: z.array(z.string()),
});
export type RateCard = z.infer<typeof RateCard>;
export const RateCardAnswer = z.object({ rateCard: RateCard.nullable() });

/** Billable messages of one pricing category (Meta's `pricing.category` of their status webhooks). */
export const BillableByCategory = z.object({ category: z.string(), messages: z.number().int() });

/** A send step of the campaign as it would be priced now. */
const EstimateStep = z.object({
  stepId: z.string(),
  templateId: z.string().nullable(),
  templateName: z.string().nullable(),
  /** The category the template is priced at: its category now. */
  category: z.string().nullable(),
});

/** Recipients of one country (libphonenumber-js reads it from the phone number; null: not read). */
const EstimateCountry = z.object({
  country: z.string().nullable(),
  market: z.string().nullable(),
  recipients: z.number().int(),
  currency: z.string().nullable(),
  /** What every send step costs for these recipients; null when the rate card has no price for them. */
  cost: z.number().nullable(),
});

export const CampaignEstimate = z.object({
  /** The contacts the trigger targets now; null for a recurring campaign (its recipients come with each trigger). */
  recipients: z.number().int().nullable(),
  steps: z.array(EstimateStep),
  byCountry: z.array(EstimateCountry),
  /** The total per currency. */
  costs: z.array(z.object({ currency: z.string(), amount: z.number() })),
  /** Recipients the rate card has no price for (no row for their country and no "Other" row). */
  unpriced: z.number().int(),
  rateCard: z.object({ fileName: z.string(), uploadedAt: Timestamp }).nullable(),
  /** What the admin should know before deploying (a template that became marketing, no rate card...). */
  warnings: z.array(z.string()),
});
export type CampaignEstimate = z.infer<typeof CampaignEstimate>;
