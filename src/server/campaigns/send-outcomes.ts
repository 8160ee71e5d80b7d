/**
 * Meta's consent and limits in a campaign's sends:
 * - before a send: a contact who stopped marketing in WhatsApp is skipped for marketing templates (utility and
 *   authentication still go); a marketing template to a US number is skipped (Meta refuses them with 131049)
 *   unless the workspace turned that off; a paused or disabled template halts the campaign.
 * - after a refusal: 131049 is `capped` (the same step once more, no sooner than 24 h later, never a failure);
 *   131050 skips the recipient and records the contact's stop; an account-level refusal (haltingCodes) halts
 *   the campaign, and every other running campaign of the number or the template (halts.ts), and leaves the
 *   recipient pending, like every other recipient not sent yet.
 * - the portfolio's messaging limit (portfolio-budget.ts): a recipient without room waits, pending, with the
 *   reason on its campaign.
 * The batch applies the halts and consent changes these answer in its own transaction (applyOutcomeEffects).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Executor } from '../db/client';
import * as halts from '../repositories/campaign-halts';
import type { ClaimedRecipient, RecipientMove } from '../repositories/campaign-runs';
import type { ContactRow } from '../repositories/campaign-contacts';
import type { LogLine } from '../repositories/campaign-logs';
import { appendEvents } from '../repositories/event-log';
import { applyConsentByPhone } from '../repositories/marketing-consent';
import { toContact } from '../repositories/resources';
import { haltingCodes, marketingCapCode, marketingStoppedCode } from '../messaging/send-outcomes';
import { type GraphApiError, userMessageFor } from '../whatsapp/graph-errors';
import type { CanvasOf } from './canvas-cache';
import type { SendStep } from './deployed-canvas';
import { campaignUpdated } from './events';
import { type AppliedHalt, type Halt, applyHalts } from './halts';
import type { PortfolioHold } from './portfolio-budget';

/** A recipient on its one retry after 131049 carries this in `attempts` (never reached by pair-rate retries). */
export const cappedRetryMark = 1000;
const cappedRetryMs = 24 * 3600_000;

export const metaStoppedReason = 'Stopped marketing messages in WhatsApp';
export const usMarketingReason = 'Not sent: WhatsApp does not deliver marketing templates to US numbers';
const cappedReason = "WhatsApp's per-user marketing limit (131049): tried again no sooner than 24 hours later";
const cappedAgainReason = "WhatsApp's per-user marketing limit (131049) again after 24 hours: not tried again";

/** What the batch applies besides the moves and log lines. */
export interface OutcomeEffects {
  halt?: Halt;
  /** The recipient waits for room in the portfolio's messaging limit. */
  hold?: { campaignId: string } & PortfolioHold;
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
export const haltedOutcome = (c: ClaimedRecipient, step: SendStep, now: Date, halt: { code: number; reason: string }): Outcome => ({
  move: { id: c.id, status: 'pending', stepId: step.id, nextAt: now, attempts: c.attempts },
  halt: { campaignId: c.campaignId, whatsappAccountId: step.whatsappAccountId, templateId: step.whatsappTemplateId, ...halt },
});

/** A recipient held for the portfolio's limit: pending at the same step until room opens; no log line. */
export const heldOutcome = (c: ClaimedRecipient, stepId: string, hold: PortfolioHold): Outcome => ({
  move: { id: c.id, status: 'pending', stepId, nextAt: hold.until, attempts: c.attempts },
  hold: { campaignId: c.campaignId, ...hold },
});

/** Meta's words for a refusal (its details, else its message), for the campaign and the admins. */
const metaWords = (err: GraphApiError) => err.details ?? err.message;

/** A refusal Meta's limits or consent explain, as the recipient's outcome; null for any other refusal. */
export function limitOutcome(c: ClaimedRecipient, step: SendStep, base: LogBase, contact: Pick<ContactRow, 'phoneNumber'>, err: GraphApiError, now: Date): Outcome | null {
  const stepId = step.id;
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
  if (err.code !== undefined && haltingCodes.has(err.code)) return haltedOutcome(c, step, now, { code: err.code, reason: metaWords(err) });
  return null;
}

/**
 * Inside the batch's transaction: the campaigns halted, with every other running campaign of the same number or
 * template (`applyHalts`), the portfolio holds shown or cleared (with `campaign.updated`), and the contacts'
 * marketing stops (with `contact.updated`). Answers the halts, for the admins' notices.
 */
export async function applyOutcomeEffects(tx: Executor, workspaceId: string, outcomes: Outcome[], canvasOf: CanvasOf): Promise<AppliedHalt[]> {
  const applied = await applyHalts(tx, workspaceId, outcomes.flatMap((o) => (o.halt ? [o.halt] : [])), canvasOf);
  await applyHolds(tx, workspaceId, outcomes);
  const stops = new Map(outcomes.flatMap((o) => (o.stopped ? [[o.stopped.phoneNumber, o.stopped] as const] : [])));
  const changed = await applyConsentByPhone(
    tx,
    workspaceId,
    '131050',
    [...stops.values()].map((s) => ({ phoneNumber: s.phoneNumber, value: 'stopped' as const, at: s.at })),
  );
  await appendEvents(tx, workspaceId, changed.map((row) => ({ type: 'contact.updated' as const, payload: { contact: toContact(row) } })));
  return applied;
}

/** Campaigns that held recipients show why; those that sent and held nobody no longer do. */
async function applyHolds(tx: Executor, workspaceId: string, outcomes: Outcome[]): Promise<void> {
  const holds = new Map<string, { campaignId: string } & PortfolioHold>();
  for (const o of outcomes) if (o.hold && !holds.has(o.hold.campaignId)) holds.set(o.hold.campaignId, o.hold);
  const sent = new Set(outcomes.flatMap((o) => (o.log?.messageStatus === 'success' && !holds.has(o.log.campaignId) ? [o.log.campaignId] : [])));
  const changed = [...(await halts.setHolds(tx, workspaceId, [...holds.values()])), ...(await halts.clearHolds(tx, workspaceId, [...sent]))];
  for (const row of changed) await campaignUpdated(tx, row);
}

/** After a batch of statuses: recipients whose marketing send WhatsApp capped later get their one retry. */
export async function requeueCappedSends(tx: Executor, workspaceId: string, cappedWamids: string[]): Promise<number> {
  return halts.requeueCapped(tx, workspaceId, cappedWamids, cappedRetryMark, cappedRetryMs);
}
