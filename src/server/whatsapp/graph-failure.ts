/**
 * A Graph API failure as the product answers it: the sentence from GraphApiError.userMessage with a status the
 * client shows as it is. 409 rather than 400 for what the user must read (the client replaces a 400's message
 * with 'Bad Request Exception', spec section 8); 429 for rate limits; 502 without details when WhatsApp
 * cannot be reached or answers something unexpected.
 */
import { HttpError } from '../errors';
import { GraphApiError } from './graph-errors';

export const whatsappUnavailable = () => new HttpError(502, 'WhatsApp could not be reached; try again in a moment');

export function productErrorOf(err: unknown): HttpError {
  if (!(err instanceof GraphApiError)) return whatsappUnavailable();
  switch (err.kind) {
    case 'rate_limited':
      return new HttpError(429, err.userMessage);
    case 'outside_window':
    case 'invalid_token':
    case 'template_rejected':
    case 'invalid_request':
    case 'policy':
      return new HttpError(409, err.userMessage);
    default:
      return whatsappUnavailable();
  }
}

/** Runs a Graph call (or a send through the outbound path); a failure becomes the product error above (the detail goes to the log, not the answer). */
export async function viaGraph<T>(log: { warn(obj: object, msg: string): void }, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    // The product's own refusals (no number, outside the window) pass as they are.
    if (err instanceof HttpError) throw err;
    const e = err instanceof GraphApiError ? err : undefined;
    log.warn({ what, kind: e?.kind, code: e?.code, httpStatus: e?.httpStatus, fbtraceId: e?.fbtraceId }, 'Graph API call failed');
    throw productErrorOf(err);
  }
}
