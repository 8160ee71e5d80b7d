/**
 * One claimed recipient's step and what came of it, as a move of the recipient and (for sends) its log line:
 * a delay is a due time; a send is decided (opted out, outside its window, template gone or not approved,
 * values missing, no room in the portfolio's messaging limit), then made through the outbound path with the key `campaign:<recipientId>:<stepId>`, and its
 * outcome mapped (sendOutcome). Nothing here writes: the batch writes every outcome together.
 */
import { limits } from '../../shared/limits';
import { HttpError } from '../errors';
import type { ClaimedRecipient, RecipientMove } from '../repositories/campaign-runs';
import type { ContactRow } from '../repositories/campaign-contacts';
import type { LogLine } from '../repositories/campaign-logs';
import type * as r from '../repositories/resources';
import { toContact } from '../repositories/resources';
import type { ServiceDeps } from '../services/context';
import type { Outbound } from '../messaging/outbound';
import { OutcomeUnknownError, SendInFlightError, pairRateLimitCode } from '../messaging/send-outcomes';
import { valuesFromMapping, prepareTemplateSend, type TemplateValues } from '../messaging/template-send';
import { GraphApiError } from '../whatsapp/graph-errors';
import type { DeployedCanvas, SendStep } from './deployed-canvas';
import type { PortfolioBudget } from './portfolio-budget';
import { type LogBase, type Outcome, beforeSend, cappedRetryMark, haltedOutcome, heldOutcome, limitOutcome, sendKey } from './send-outcomes';
import { nextSendTime, recipientTimeZone } from './send-window';

const unknownOutcomeReason = 'outcome unknown, not resent';
/** The log line's skip reason says how the contact opted out (plain "opted out" for one recorded before sources were). */
const optedOutReasons: Record<NonNullable<ContactRow['optedOutSource']>, string> = {
  keyword: 'opted out (keyword)',
  template_button: "opted out (template's opt-out button)",
  member: 'opted out (by hand)',
};
const optedOutReason = (contact: ContactRow) => (contact.optedOutSource ? optedOutReasons[contact.optedOutSource] : 'opted out');

export type { Outcome };

/** Thrown before a send's claim when its recipient may no longer be sent (paused, deleted). */
class ClaimReleasedError extends Error {}
type Template = NonNullable<Awaited<ReturnType<typeof r.whatsappTemplates.get>>>;

/** What every step of the runner uses. */
export interface StepDeps {
  files: ServiceDeps['files'];
  outbound: Pick<Outbound, 'send'>;
  now: () => Date;
  /** Whether a claimed recipient may still be sent (asked right before each send is handed to the HTTP client). */
  stillClaimed(recipientId: string): Promise<boolean>;
  /** Where the send of a key stands, for an error the path did not classify (it may have been accepted). */
  sendState(workspaceId: string, key: string): Promise<{ status: string; waMessageId: string | null } | null>;
}

/** What the recipients of one workspace's batch share (read once per batch). */
export interface BatchContext {
  timeZone: string;
  attributeNames: Map<string, string>;
  /** Marketing templates to US numbers are skipped before sending. */
  skipUsMarketing: boolean;
  template(id: string): Promise<Awaited<ReturnType<typeof r.whatsappTemplates.get>>>;
  /** The room in the business portfolio's messaging limit, counted once per batch. */
  portfolio: PortfolioBudget;
}

/** Runs the recipient's current step: answers its move (and log line); never throws for a send's refusal. */
export async function runRecipientStep(s: StepDeps, c: ClaimedRecipient, canvas: DeployedCanvas | null, contact: ContactRow | undefined, ctx: BatchContext): Promise<Outcome> {
  const stop = (status: RecipientMove['status']): Outcome => ({ move: { id: c.id, status, stepId: c.stepId, nextAt: null, attempts: c.attempts } });
  if (!canvas || !contact) return stop('failed');
  if (!c.stepId) return stop('done');
  const step = canvas.step(c.stepId);
  if (!step) return stop('failed');
  if (step.kind === 'delay') {
    const next = canvas.next(step.id);
    return { move: { id: c.id, status: next ? 'waiting' : 'done', stepId: next, nextAt: next ? new Date(s.now().getTime() + step.ms) : null, attempts: 0 } };
  }
  return runSend(s, c, step, canvas, contact, ctx);
}

/** Decides whether the send goes now: the values to send, or the outcome without a send (ended, or due later). */
function decideSend(s: StepDeps, c: ClaimedRecipient, step: SendStep, canvas: DeployedCanvas, contact: ContactRow, ctx: BatchContext, tpl: Template | null, base: LogBase, zone: string): { outcome: Outcome } | { tpl: Template; values: TemplateValues } {
  const end = (reason: string, deliveryState: LogLine['deliveryState'] = 'failed'): { outcome: Outcome } => ({
    outcome: {
      move: { id: c.id, status: deliveryState === 'failed' ? 'failed' : 'skipped', stepId: step.id, nextAt: null, attempts: c.attempts },
      log: { ...base, messageStatus: 'failed', deliveryState, reason, errorCode: null, wamid: null },
    },
  });
  if (contact.optedOutAt) return end(optedOutReason(contact), 'optedOut');
  const due = nextSendTime(s.now(), canvas.sendWindow, zone);
  if (due.getTime() > s.now().getTime() + 1000) return { outcome: { move: { id: c.id, status: 'pending', stepId: step.id, nextAt: due, attempts: c.attempts } } };
  if (!tpl) return end('The template of this step no longer exists');
  const limit = beforeSend(contact, tpl, ctx.skipUsMarketing);
  if (limit && 'halt' in limit) return { outcome: haltedOutcome(c, step, s.now(), limit.halt) };
  if (limit) return end(limit.skip.reason, limit.skip.state);
  if (tpl.status !== 'APPROVED') return end(`Template ${tpl.name} is ${tpl.status}; only approved templates can be sent`);
  const mapped = valuesFromMapping(tpl, step.variables, toContact(contact), ctx.attributeNames, step.headerMediaLink);
  if ('missing' in mapped) return end(`Not sent: ${mapped.missing}`);
  return { tpl, values: mapped.values };
}

async function runSend(s: StepDeps, c: ClaimedRecipient, step: SendStep, canvas: DeployedCanvas, contact: ContactRow, ctx: BatchContext): Promise<Outcome> {
  const tpl = await ctx.template(step.whatsappTemplateId);
  const base: LogBase = { campaignId: c.campaignId, runId: c.runId, recipientId: c.id, contactId: contact.id, stepId: step.id, phoneNumber: contact.phoneNumber ?? '', templateName: tpl?.name ?? '' };
  // The zone is only looked up for a campaign with a send window.
  const zone = canvas.sendWindow ? await recipientTimeZone(contact, ctx.timeZone) : ctx.timeZone;
  const decided = decideSend(s, c, step, canvas, contact, ctx, tpl, base, zone);
  if ('outcome' in decided) return decided.outcome;
  const hold = await ctx.portfolio.admit(contact.id);
  if (hold) return heldOutcome(c, step.id, hold);
  try {
    const content = await prepareTemplateSend(s.files, c.workspaceId, decided.tpl, decided.values);
    const beforeRequest = async () => {
      if (!(await s.stillClaimed(c.id))) throw new ClaimReleasedError();
    };
    const sent = await s.outbound.send(
      {
        workspaceId: c.workspaceId,
        actor: { type: 'campaign', campaignId: c.campaignId },
        target: { contactId: contact.id, whatsappAccountId: step.whatsappAccountId },
        content,
        idempotencyKey: sendKey(c, step.id),
      },
      { beforeRequest },
    );
    const next = canvas.next(step.id);
    return {
      // A send on its one 131049 retry keeps the mark, so a later `failed` 131049 status does not retry it again.
      move: { id: c.id, status: next ? 'pending' : 'done', stepId: next, nextAt: next ? s.now() : null, attempts: c.attempts === cappedRetryMark ? cappedRetryMark : 0 },
      log: { ...base, messageStatus: 'success', deliveryState: 'sent', reason: null, errorCode: null, wamid: sent.wamid },
    };
  } catch (err) {
    if (err instanceof ClaimReleasedError) return {};
    if (err instanceof GraphApiError && !err.mayHaveArrived) {
      const limited = limitOutcome(c, step, base, contact, err, s.now());
      if (limited) return limited;
    }
    return sendOutcome(s, c, step, canvas, base, err instanceof OutcomeUnknownError || err instanceof GraphApiError || err instanceof HttpError || err instanceof SendInFlightError ? err : await unclassified(s, c, step, err));
  }
}


/**
 * An error the outbound path did not classify (its final write failed, the database was gone a moment): the
 * send's record says whether Meta took it. Unknown (with the wamid Meta answered, so a status webhook settles the
 * line) or, when nothing was claimed, the same step a little later; never a failed batch.
 */
async function unclassified(s: StepDeps, c: ClaimedRecipient, step: SendStep, err: unknown): Promise<Error> {
  const state = await s.sendState(c.workspaceId, sendKey(c, step.id)).catch(() => null);
  if (state?.status === 'unknown' || state?.status === 'claimed' || state?.status === 'sent') return new OutcomeUnknownError('', state.waMessageId);
  return new RetryLaterError(err instanceof Error ? err.message : 'unexpected error');
}

/** Nothing was handed to Meta: the same step again a little later. */
class RetryLaterError extends Error {}

/**
 * What a refused or unsettled send makes of the recipient: 131056 (pair rate) -> the same step again after 6,
 * 24, 96 s, then failed; Meta's final refusals -> failed with Meta's reason; an unknown outcome -> logged
 * `unknown`, never resent, the recipient goes on; in flight elsewhere, or left `pending` -> the same step later.
 */
function sendOutcome(s: StepDeps, c: ClaimedRecipient, step: SendStep, canvas: DeployedCanvas, base: LogBase, err: unknown): Outcome {
  const at = s.now().getTime();
  const later = (ms: number, attempts = c.attempts): Outcome => ({ move: { id: c.id, status: 'pending', stepId: step.id, nextAt: new Date(at + ms), attempts } });
  const failed = (reason: string, errorCode: number | null, deliveryState: LogLine['deliveryState'] = 'failed'): Outcome => ({
    move: { id: c.id, status: 'failed', stepId: step.id, nextAt: null, attempts: c.attempts },
    log: { ...base, messageStatus: 'failed', deliveryState, reason, errorCode, wamid: null },
  });
  // Looked at again soon: a claim whose process died counts as unknown once it is a lease old (a few seconds after
  // its recipient's lease ran out), and the crash bound includes this wait.
  if (err instanceof SendInFlightError) return later(5_000);
  if (err instanceof RetryLaterError) return later(10_000);
  if (err instanceof OutcomeUnknownError || (err instanceof GraphApiError && err.mayHaveArrived)) {
    const next = canvas.next(step.id);
    const wamid = err instanceof OutcomeUnknownError ? err.wamid : null;
    return {
      move: { id: c.id, status: next ? 'pending' : 'done', stepId: next, nextAt: next ? s.now() : null, attempts: 0 },
      log: { ...base, messageStatus: 'failed', deliveryState: 'unknown', reason: unknownOutcomeReason, errorCode: null, wamid },
    };
  }
  if (err instanceof GraphApiError) {
    if (err.code === pairRateLimitCode) {
      const delays = limits.campaign.pairRateRetrySeconds;
      if (c.attempts < delays.length) return later(delays[c.attempts] * 1000, c.attempts + 1);
      return failed(err.userMessage, err.code ?? null);
    }
    // Left `pending` by the outbound path (130429 past its own retries, 131057, 5xx): the same send later.
    if (err.retryable) return later(10_000);
    return failed(err.userMessage, err.code ?? null);
  }
  if (err instanceof HttpError) return failed(err.message, null);
  throw err;
}
