/** Meta's error envelope (reference §2), thrown inside the sandbox and rendered by its error handler. */
import { randomBytes } from 'node:crypto';

/** HTTP status Meta uses for a Graph error code (reference §2). */
export function httpStatusForCode(code: number): number {
  if (code === 0 || code === 190) return 401;
  if (code === 10 || (code >= 200 && code <= 299)) return 403;
  if (code === 4 || code === 80007) return 429;
  if (code === 1 || code === 3) return 500;
  if (code === 2 || code === 131016) return 503;
  return 400;
}

/** Titles Meta attaches (deprecated, but still sent); clients must branch on the code instead. */
const titles: Record<number, string> = {
  100: 'Invalid parameter',
  131008: 'Required parameter is missing',
  131009: 'Parameter value is not valid',
  131047: 'Re-engagement message',
  131021: 'Recipient cannot be sender',
  130429: 'Rate limit hit',
  131056: '(Business Account, Consumer Account) pair rate limit hit',
  131026: 'Message undeliverable',
  131049: 'This message was not delivered to maintain healthy ecosystem engagement.',
  131057: 'Account in maintenance mode',
  131000: 'Something went wrong',
  131016: 'Service unavailable',
  132000: 'Number of parameters does not match the expected number of params',
  132001: 'Template name does not exist in the translation',
  132015: 'Template is Paused',
  132016: 'Template is Disabled',
  190: 'Invalid OAuth access token',
  1: 'An unknown error occurred',
  2: 'Service temporarily unavailable',
};

export function titleForCode(code: number): string {
  return titles[code] ?? 'Error';
}

export class SandboxGraphError extends Error {
  readonly httpStatus: number;
  constructor(
    readonly code: number,
    readonly details: string,
    readonly opts: { subcode?: number; type?: string; httpStatus?: number; message?: string } = {},
  ) {
    super(opts.message ?? `(#${code}) ${titleForCode(code)}`);
    this.httpStatus = opts.httpStatus ?? httpStatusForCode(code);
  }

  toBody(): object {
    return {
      error: {
        message: this.message,
        type: this.opts.type ?? 'OAuthException',
        code: this.code,
        error_data: { messaging_product: 'whatsapp', details: this.details },
        ...(this.opts.subcode !== undefined ? { error_subcode: this.opts.subcode } : {}),
        fbtrace_id: randomBytes(12).toString('base64url'),
      },
    };
  }
}

/** The item shape of `errors[]` in a `failed` status webhook (reference §3). */
export function webhookErrorItem(code: number, details: string) {
  return {
    code,
    title: titleForCode(code),
    message: titleForCode(code),
    error_data: { details },
    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
  };
}

export const invalid = (details: string) => new SandboxGraphError(131009, details);
export const missing = (details: string) => new SandboxGraphError(131008, details);
export const badParam = (details: string) => new SandboxGraphError(100, details);
/** What Graph answers for an id the token cannot see (or that does not exist): the two are indistinguishable. */
export const unknownObject = (id: string, method: string) =>
  new SandboxGraphError(100, `Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, {
    subcode: 33,
    type: 'GraphMethodException',
    message: `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
  });
