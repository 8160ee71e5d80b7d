/**
 * One claimed recipient's step and what came of it, as a move of the recipient and (for sends) its log line:
 * a delay is a due time; a send is decided (opted out, outside its window, template gone or not approved,
 * values missing), then made through the outbound path with the key `campaign:<recipientId>:<stepId>`, and its
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
import { nextSendTime, recipientTimeZone } from './send-window';

const unknownOutcomeReason = 'outcome unknown, not resent';
const optedOutReason = 'opted out';

export type Outcome = { move: RecipientMove; log?: LogLine };
type LogBase = Omit<LogLine, 'messageStatus' | 'deliveryState' | 'reason' | 'errorCode' | 'wamid'>;
type Template = NonNullable<Awaited<ReturnType<typeof r.whatsappTemplates.get>>>;

/** What every step of the runner uses. */
export interface StepDeps {
  files: ServiceDeps['files'];
  outbound: Pick<Outbound, 'send'>;
  now: () => Date;
}

/** What the recipients of one workspace's batch share (read once per batch). */
export interface BatchContext {
  timeZone: string;
  attributeNames: Map<string, string>;
  template(id: string): Promise<Awaited<ReturnType<typeof r.whatsappTemplates.get>>>;
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
function decideSend(s: StepDeps, c: ClaimedRecipient, step: SendStep, canvas: DeployedCanvas, contact: ContactRow, ctx: BatchContext, tpl: Template | null, base: LogBase): { outcome: Outcome } | { tpl: Template; values: TemplateValues } {
  const end = (reason: string, deliveryState: LogLine['deliveryState'] = 'failed'): { outcome: Outcome } => ({
    outcome: {
      move: { id: c.id, status: deliveryState === 'optedOut' ? 'skipped' : 'failed', stepId: step.id, nextAt: null, attempts: c.attempts },
      log: { ...base, messageStatus: 'failed', deliveryState, reason, errorCode: null, wamid: null },
    },
  });
  if (contact.optedOutAt) return end(optedOutReason, 'optedOut');
  const due = nextSendTime(s.now(), canvas.sendWindow, recipientTimeZone(contact, ctx.timeZone));
  if (due.getTime() > s.now().getTime() + 1000) return { outcome: { move: { id: c.id, status: 'pending', stepId: step.id, nextAt: due, attempts: c.attempts } } };
  if (!tpl) return end('The template of this step no longer exists');
  if (tpl.status !== 'APPROVED') return end(`Template ${tpl.name} is ${tpl.status}; only approved templates can be sent`);
  const mapped = valuesFromMapping(tpl, step.variables, toContact(contact), ctx.attributeNames, step.headerMediaLink);
  if ('missing' in mapped) return end(`Not sent: ${mapped.missing}`);
  return { tpl, values: mapped.values };
}

async function runSend(s: StepDeps, c: ClaimedRecipient, step: SendStep, canvas: DeployedCanvas, contact: ContactRow, ctx: BatchContext): Promise<Outcome> {
  const tpl = await ctx.template(step.whatsappTemplateId);
  const base: LogBase = { campaignId: c.campaignId, runId: c.runId, recipientId: c.id, contactId: contact.id, stepId: step.id, phoneNumber: contact.phoneNumber ?? '', templateName: tpl?.name ?? '' };
  const decided = decideSend(s, c, step, canvas, contact, ctx, tpl, base);
  if ('outcome' in decided) return decided.outcome;
  try {
    const content = await prepareTemplateSend(s.files, c.workspaceId, decided.tpl, decided.values);
    const sent = await s.outbound.send({
      workspaceId: c.workspaceId,
      actor: { type: 'campaign', campaignId: c.campaignId },
      target: { contactId: contact.id, whatsappAccountId: step.whatsappAccountId },
      content,
      idempotencyKey: `campaign:${c.id}:${step.id}`,
    });
    const next = canvas.next(step.id);
    return {
      move: { id: c.id, status: next ? 'pending' : 'done', stepId: next, nextAt: next ? s.now() : null, attempts: 0 },
      log: { ...base, messageStatus: 'success', deliveryState: 'sent', reason: null, errorCode: null, wamid: sent.wamid },
    };
  } catch (err) {
    return sendOutcome(s, c, step, canvas, base, err);
  }
}

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
  if (err instanceof SendInFlightError) return later(30_000);
  if (err instanceof OutcomeUnknownError || (err instanceof GraphApiError && err.mayHaveArrived)) {
    const next = canvas.next(step.id);
    return {
      move: { id: c.id, status: next ? 'pending' : 'done', stepId: next, nextAt: next ? s.now() : null, attempts: 0 },
      log: { ...base, messageStatus: 'failed', deliveryState: 'unknown', reason: unknownOutcomeReason, errorCode: null, wamid: null },
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
