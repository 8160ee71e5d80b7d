/**
 * Meta's consent and limits in a campaign's sends:
 * - before a send: a contact who stopped marketing in WhatsApp is skipped for marketing templates (utility and
 *   authentication still go); a marketing template to a US number is skipped (Meta refuses them with 131049)
 *   unless the workspace turned that off; a paused or disabled template halts the campaign.
 * - after a refusal: 131049 is `capped` (the same step once more, no sooner than 24 h later, never a failure);
 *   131050 skips the recipient and records the contact's stop; an account-level refusal (haltingCodes) halts
 *   the campaign and leaves the recipient pending, like every other recipient not sent yet.
 * The batch applies the halts and consent changes these answer in its own transaction (applyOutcomeEffects).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Executor } from '../db/client';
import * as halts from '../repositories/campaign-halts';
import type { ClaimedRecipient, RecipientMove } from '../repositories/campaign-runs';
import type { ContactRow } from '../repositories/campaign-contacts';
import type { CampaignRow } from '../repositories/campaigns';
import type { LogLine } from '../repositories/campaign-logs';
import { appendEvents } from '../repositories/event-log';
import { applyConsentByPhone } from '../repositories/marketing-consent';
import { toContact } from '../repositories/resources';
import { haltingCodes, marketingCapCode, marketingStoppedCode } from '../messaging/send-outcomes';
import { type GraphApiError, userMessageFor } from '../whatsapp/graph-errors';
import { campaignUpdated } from './events';

/** A recipient on its one retry after 131049 carries this in `attempts` (never reached by pair-rate retries). */
export const cappedRetryMark = 1000;
const cappedRetryMs = 24 * 3600_000;

export const metaStoppedReason = 'Stopped marketing messages in WhatsApp';
export const usMarketingReason = 'Not sent: WhatsApp does not deliver marketing templates to US numbers';
const cappedReason = "WhatsApp's per-user marketing limit (131049): tried again no sooner than 24 hours later";
const cappedAgainReason = "WhatsApp's per-user marketing limit (131049) again after 24 hours: not tried again";

/** A campaign halted by an account-level refusal: Meta's code and words. */
export interface Halt {
  campaignId: string;
  code: number;
  reason: string;
}

/** What the batch applies besides the moves and log lines. */
export interface OutcomeEffects {
  halt?: Halt;
  /** The contact's marketing stop learnt from a 131050 refusal. */
  stopped?: { phoneNumber: string; at: Date };
}

/** No move: the recipient was released (paused) or deleted before its send was handed over; nothing went out. */
export type Outcome = { move?: RecipientMove; log?: LogLine } & OutcomeEffects;
export type LogBase = Omit<LogLine, 'messageStatus' | 'deliveryState' | 'reason' | 'errorCode' | 'wamid'>;

interface TemplateFacts {
  name: string;
  status: string;
  category: string;
}

const isMarketing = (tpl: TemplateFacts) => tpl.category.toUpperCase() === 'MARKETING';
const isUsNumber = (phone: string) => parsePhoneNumberFromString(phone)?.country === 'US';

/** The idempotency key of a step's send (its one retry after 131049 is a new send). */
export const sendKey = (c: ClaimedRecipient, stepId: string) => `campaign:${c.id}:${stepId}${c.attempts === cappedRetryMark ? ':capped' : ''}`;

/** Before a send: skip (with the log's state and reason), halt, or go (null). */
export function beforeSend(
  contact: Pick<ContactRow, 'phoneNumber' | 'marketingConsent'>,
  tpl: TemplateFacts,
  skipUsMarketing: boolean,
): { skip: { reason: string; state: 'optedOut' | 'capped' } } | { halt: { code: number; reason: string } } | null {
  if (tpl.status === 'PAUSED' || tpl.status === 'DISABLED') {
    const code = tpl.status === 'PAUSED' ? 132015 : 132016;
    return { halt: { code, reason: `Template ${tpl.name} is ${tpl.status}: ${userMessageFor('template_rejected', { code })}` } };
  }
  if (!isMarketing(tpl)) return null;
  if (contact.marketingConsent === 'stopped') return { skip: { reason: metaStoppedReason, state: 'optedOut' } };
  if (skipUsMarketing && contact.phoneNumber && isUsNumber(contact.phoneNumber)) return { skip: { reason: usMarketingReason, state: 'capped' } };
  return null;
}

/** A halted recipient: pending at the same step, sent when the campaign resumes. */
export const haltedOutcome = (c: ClaimedRecipient, stepId: string, now: Date, halt: Omit<Halt, 'campaignId'>): Outcome => ({
  move: { id: c.id, status: 'pending', stepId, nextAt: now, attempts: c.attempts },
  halt: { campaignId: c.campaignId, ...halt },
});

/** Meta's words for a refusal (its details, else its message), for the campaign and the admins. */
const metaWords = (err: GraphApiError) => err.details ?? err.message;

/** A refusal Meta's limits or consent explain, as the recipient's outcome; null for any other refusal. */
export function limitOutcome(c: ClaimedRecipient, stepId: string, base: LogBase, contact: Pick<ContactRow, 'phoneNumber'>, err: GraphApiError, now: Date): Outcome | null {
  const log = (deliveryState: LogLine['deliveryState'], reason: string): LogLine => ({ ...base, messageStatus: 'failed', deliveryState, reason, errorCode: err.code ?? null, wamid: null });
  const end = (status: RecipientMove['status']): RecipientMove => ({ id: c.id, status, stepId, nextAt: null, attempts: c.attempts });
  if (err.code === marketingCapCode) {
    if (c.attempts === cappedRetryMark) return { move: end('skipped'), log: log('capped', cappedAgainReason) };
    return {
      move: { id: c.id, status: 'pending', stepId, nextAt: new Date(now.getTime() + cappedRetryMs), attempts: cappedRetryMark },
      log: log('capped', cappedReason),
    };
  }
  if (err.code === marketingStoppedCode) {
    return { move: end('skipped'), log: log('optedOut', metaStoppedReason), ...(contact.phoneNumber ? { stopped: { phoneNumber: contact.phoneNumber, at: now } } : {}) };
  }
  if (err.code !== undefined && haltingCodes.has(err.code)) return haltedOutcome(c, stepId, now, { code: err.code, reason: metaWords(err) });
  return null;
}

/**
 * Inside the batch's transaction: the campaigns halted (with `campaign.updated`) and the contacts' marketing
 * stops (with `contact.updated`). Answers the campaigns halted, for the admins' notices.
 */
export async function applyOutcomeEffects(tx: Executor, workspaceId: string, outcomes: OutcomeEffects[]): Promise<CampaignRow[]> {
  const byCampaign = new Map<string, Halt>();
  for (const o of outcomes) if (o.halt && !byCampaign.has(o.halt.campaignId)) byCampaign.set(o.halt.campaignId, o.halt);
  const halted = await halts.haltCampaigns(tx, workspaceId, [...byCampaign.values()]);
  for (const row of halted) await campaignUpdated(tx, row);
  const stops = new Map(outcomes.flatMap((o) => (o.stopped ? [[o.stopped.phoneNumber, o.stopped] as const] : [])));
  const changed = await applyConsentByPhone(
    tx,
    workspaceId,
    '131050',
    [...stops.values()].map((s) => ({ phoneNumber: s.phoneNumber, value: 'stopped' as const, at: s.at })),
  );
  await appendEvents(tx, workspaceId, changed.map((row) => ({ type: 'contact.updated' as const, payload: { contact: toContact(row) } })));
  return halted;
}

/** After a batch of statuses: recipients whose marketing send WhatsApp capped later get their one retry. */
export async function requeueCappedSends(tx: Executor, workspaceId: string, cappedWamids: string[]): Promise<number> {
  return halts.requeueCapped(tx, workspaceId, cappedWamids, cappedRetryMark, cappedRetryMs);
}
