/** What a send answers: the stored message, or one of the outcomes its caller must tell apart. */
import type { Message } from '../../shared';

/** Meta's pair-rate refusal (too many messages to one customer): retryable for that recipient alone. */
export const pairRateLimitCode = 131056;
/** Meta's per-user marketing limit (also every marketing template to a US number): try once more after 24 h. */
export const marketingCapCode = 131049;
/** The customer stopped marketing messages in WhatsApp: never retried. */
export const marketingStoppedCode = 131050;

/**
 * Account-level refusals: the number, the template or the whole account cannot send now (rate limit of the
 * account, spam restriction, paused or disabled template, expired token, policy block, locked account, payment,
 * marketing off on the Cloud API, misclassification limit). Meta did not take the message, and fixing the account
 * makes the same send go, so the send stays `pending` and a campaign halts instead of failing its audience.
 */
export const haltingCodes: ReadonlySet<number> = new Set([80007, 131048, 132015, 132016, 190, 368, 131031, 131042, 131063, 131064]);
/**
 * Of those, the template's own refusals (paused for low quality, disabled): they halt every running campaign
 * sending that template. The rest concern the number, its WABA or its token: they halt every running campaign
 * sending from that number.
 */
export const templateHaltCodes: ReadonlySet<number> = new Set([132015, 132016]);

/** Meta may or may not have the message; it is not sent again automatically. */
export class OutcomeUnknownError extends Error {
  /** `wamid`: Meta accepted it under this id (its writes failed), so status webhooks can still settle it. */
  constructor(
    readonly sendId: string,
    readonly wamid: string | null = null,
  ) {
    super('The outcome of this send is unknown; it is not sent again');
  }
}

/** The same key is being sent right now by another attempt (a job retried while its first run still works). */
export class SendInFlightError extends Error {
  constructor(readonly sendId: string) {
    super('This send is in progress');
  }
}

export interface SentMessage {
  message: Message;
  sendId: string;
  /** The key had been sent before: this is that send's message, nothing went out now. */
  replayed: boolean;
  /** WhatsApp's id of the message (status webhooks name it). */
  wamid: string | null;
}
