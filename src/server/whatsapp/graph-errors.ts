/**
 * Graph API failures as one error type with a `kind` the product branches on and a `userMessage` an agent
 * or admin understands. Classification goes by `code` (and subcode), never by Meta's message text, which
 * Meta says will change (reference §2).
 */

export type GraphErrorKind =
  | 'outside_window'
  | 'invalid_token'
  | 'rate_limited'
  | 'template_rejected'
  | 'invalid_request'
  | 'unavailable'
  | 'policy'
  | 'unknown';

export interface GraphErrorInit {
  httpStatus: number;
  code?: number;
  subcode?: number;
  /** `error_data.details`: Meta's explanation, usually the most specific part. */
  details?: string;
  message?: string;
  fbtraceId?: string;
  /** Set when no HTTP answer arrived (refused connection, reset, timeout). */
  network?: boolean;
  timeout?: boolean;
  /**
   * A send whose request may have reached Meta although no usable answer came back (timeout, reset, an answer
   * without a message id): Meta may have it. The outbound path records such a send as of unknown outcome.
   */
  mayHaveArrived?: boolean;
}

export class GraphApiError extends Error {
  readonly httpStatus: number;
  readonly code: number | undefined;
  readonly subcode: number | undefined;
  readonly details: string | undefined;
  readonly fbtraceId: string | undefined;
  readonly kind: GraphErrorKind;
  readonly userMessage: string;
  readonly network: boolean;
  readonly timeout: boolean;
  readonly mayHaveArrived: boolean;

  constructor(init: GraphErrorInit) {
    const kind = classifyGraphError(init.code, init.httpStatus, init.network);
    super(init.message ?? `Graph API error${init.code !== undefined ? ` ${init.code}` : ''} (HTTP ${init.httpStatus})`);
    this.name = 'GraphApiError';
    this.httpStatus = init.httpStatus;
    this.code = init.code;
    this.subcode = init.subcode;
    this.details = init.details;
    this.fbtraceId = init.fbtraceId;
    this.network = init.network ?? false;
    this.timeout = init.timeout ?? false;
    this.mayHaveArrived = init.mayHaveArrived ?? false;
    this.kind = kind;
    this.userMessage = userMessageFor(kind, init);
  }

  /** Whether trying again later can succeed without changing the request. */
  get retryable(): boolean {
    return isRetryable(this.httpStatus, this.code, this.network);
  }
}

/** Retries only where waiting helps: 5xx, throughput (130429), maintenance (131057), no answer at all. */
export function isRetryable(httpStatus: number, code: number | undefined, network = false): boolean {
  if (network) return true;
  if (code === 130429 || code === 131057) return true;
  return httpStatus >= 500;
}

export function classifyGraphError(code: number | undefined, httpStatus: number, network = false): GraphErrorKind {
  if (network) return 'unavailable';
  switch (code) {
    case 131047:
      return 'outside_window';
    case 0:
    case 190:
    case 10:
      return 'invalid_token';
    case 4:
    case 80007:
    case 130429:
    case 131056:
      return 'rate_limited';
    case 132001:
    case 132007:
    case 132015:
    case 132016:
      return 'template_rejected';
    case 100:
    case 131008:
    case 131009:
    case 131021:
    case 131051:
    case 131052:
    case 131053:
    case 132000:
    case 132005:
    case 132008:
    case 132012:
    case 132068:
    case 132069:
      return 'invalid_request';
    case 131026:
    case 131031:
    case 131048:
    case 131049:
    case 131050:
    case 131042:
    case 131063:
    case 131064:
    case 368:
      return 'policy';
    case 1:
    case 2:
    case 3:
    case 131000:
    case 131016:
    case 131057:
      return 'unavailable';
  }
  if (code !== undefined && code >= 200 && code <= 299) return 'invalid_token';
  if (httpStatus === 401) return 'invalid_token';
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus >= 500) return 'unavailable';
  if (code === undefined && httpStatus >= 400) return 'invalid_request';
  return 'unknown';
}

/** Sentences for people, by code where the code says more than the kind. */
const byCode: Record<number, string> = {
  131047: 'More than 24 hours have passed since the customer last wrote; send an approved template instead.',
  190: 'The WhatsApp access token is invalid or expired. Update the token of this WhatsApp account.',
  10: 'The WhatsApp access token does not have permission for this WhatsApp account.',
  130429: 'WhatsApp is limiting how fast this number can send. The message will go out shortly; try again in a moment.',
  131056: 'Too many messages were sent to this customer in a short time; wait a little before sending again.',
  80007: 'The WhatsApp Business Account reached its API rate limit; try again later.',
  4: 'The WhatsApp app reached its API call limit; try again later.',
  132001: 'The template does not exist in this language or is not approved yet.',
  132015: 'The template is paused by WhatsApp because of low quality; use another template.',
  132016: 'The template was disabled by WhatsApp; use another template.',
  132007: 'The template content breaks WhatsApp policy.',
  132000: "The number of template variables doesn't match the template; fill in every variable.",
  132012: "A template variable has the wrong format for the template.",
  131026: 'The message could not be delivered: the number may not be on WhatsApp, or uses an old app version.',
  131049: 'WhatsApp did not deliver this marketing message to keep engagement healthy; try again later.',
  131050: 'The customer stopped marketing messages from this business in WhatsApp.',
  131042: 'WhatsApp refused the message because of a payment problem on the WhatsApp Business Account.',
  131063: 'Marketing messages are turned off for this WhatsApp Business Account on the Cloud API.',
  131064: 'The account reached its limit of templates sent in the wrong category.',
  131048: 'Sending is restricted because customers blocked or reported this number; slow down and check its quality.',
  131031: 'The WhatsApp account is locked by Meta.',
  368: 'The WhatsApp account is temporarily blocked by Meta for a policy violation.',
  131021: 'A message cannot be sent to the business number itself.',
  131053: 'WhatsApp could not process the media file; check its type and size.',
  131057: 'The WhatsApp account is in maintenance; try again in a minute.',
  132068: 'The WhatsApp Flow is blocked; check its endpoint.',
  132069: 'The WhatsApp Flow is throttled; try again later.',
};

export function userMessageFor(kind: GraphErrorKind, init: Pick<GraphErrorInit, 'code' | 'subcode' | 'details' | 'timeout'>): string {
  if (init.code !== undefined) {
    if (init.code === 190 && init.subcode === 463) return 'The WhatsApp access token has expired. Update the token of this WhatsApp account.';
    const known = byCode[init.code];
    if (known) return known;
  }
  switch (kind) {
    case 'outside_window':
      return byCode[131047];
    case 'invalid_token':
      return init.code !== undefined && init.code >= 200 && init.code <= 299 ? byCode[10] : byCode[190];
    case 'rate_limited':
      return 'WhatsApp is rate limiting requests; try again in a moment.';
    case 'template_rejected':
      return 'WhatsApp refused the template.';
    case 'invalid_request':
      // Meta's details name the field and the limit ("Param text['body'] must be at most 4096 characters long").
      return init.details ? `WhatsApp refused the request: ${init.details}` : 'WhatsApp refused the request as invalid.';
    case 'unavailable':
      return init.timeout ? 'WhatsApp did not answer in time; try again later.' : 'WhatsApp is temporarily unavailable; try again later.';
    case 'policy':
      return 'WhatsApp refused the message because of a policy restriction on this account or recipient.';
    default:
      return `WhatsApp returned an unexpected error${init.code !== undefined ? ` (code ${init.code})` : ''}.`;
  }
}

/** Reads Meta's envelope `{ error: { message, code, error_subcode, error_data: { details }, fbtrace_id } }`. */
export function graphErrorFromResponse(httpStatus: number, body: unknown): GraphApiError {
  const e = typeof body === 'object' && body !== null ? (body as { error?: Record<string, unknown> }).error : undefined;
  if (!e || typeof e !== 'object') return new GraphApiError({ httpStatus });
  const data = (e.error_data ?? {}) as { details?: unknown };
  return new GraphApiError({
    httpStatus,
    code: typeof e.code === 'number' ? e.code : undefined,
    subcode: typeof e.error_subcode === 'number' ? e.error_subcode : undefined,
    details: typeof data.details === 'string' ? data.details : undefined,
    message: typeof e.message === 'string' ? e.message : undefined,
    fbtraceId: typeof e.fbtrace_id === 'string' ? e.fbtrace_id : undefined,
  });
}
