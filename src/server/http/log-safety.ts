/**
 * What the log may hold: no credentials in request lines and no customer data from failed queries.
 * - Request URLs: the stream's `?token=`, Meta's `hub.verify_token` and the invitation token of
 *   /auth/sign-up/{inviteToken} are masked.
 * - Errors: a failed query's bound parameters (names, message text, e-mail addresses) and PostgreSQL's `detail`
 *   (which quotes the conflicting values) are dropped; the SQL with its placeholders stays, it says what failed.
 */
import type { FastifyRequest } from 'fastify';
import pino from 'pino';

export function maskUrl(url: string): string {
  return url
    .replace(/([?&](?:token|hub\.verify_token|hub%2Everify_token)=)[^&#]*/gi, '$1[redacted]')
    .replace(/^(\/auth\/sign-up\/)[^/?#]+/i, '$1[redacted]');
}

/** Fastify's request log fields, with credentials in the URL masked. */
export function requestForLog(req: FastifyRequest) {
  return {
    method: req.method,
    url: maskUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Keys of errors (drizzle, pg) that carry the values bound to a query. */
const valueKeys = ['params', 'parameters', 'detail'];

type LoggedError = { [key: string]: unknown; type: string; message: string; stack: string };
type ErrorLike = { name?: string; message?: string; stack?: string; code?: unknown; cause?: unknown };

/**
 * An error's message without values: drizzle appends `params: ...` to the SQL; PostgreSQL's data and integrity
 * errors (SQLSTATE classes 22 and 23) quote the offending value (`invalid input syntax for type integer: "..."`).
 */
function safeMessage(e: ErrorLike): string {
  let message = String(e.message ?? '');
  const at = message.indexOf('\nparams: ');
  if (at >= 0) message = message.slice(0, at);
  if (typeof e.code === 'string' && /^2[23][0-9A-Z]{3}$/.test(e.code)) message = message.replace(/"[^"]*"/g, '"[redacted]"');
  return message;
}

/** pino's error serializer without the values bound to a failed query, in the error or in its causes. */
export function errorForLog(err: Error): LoggedError {
  const out = { ...(pino.stdSerializers.err(err) as unknown as LoggedError) };
  for (const key of valueKeys) delete out[key];
  out.message = safeMessage(err);
  // pino's stack repeats each message (the causes' too): rebuilt from the frames and the safe messages.
  const frames = (stack: string | undefined) => {
    const from = stack?.indexOf('\n    at ') ?? -1;
    return from >= 0 ? stack!.slice(from).split('\ncaused by:')[0] : '';
  };
  let stack = `${out.type}: ${out.message}${frames(err.stack)}`;
  let cause = (err as ErrorLike).cause as ErrorLike | undefined;
  for (let depth = 0; cause && typeof cause === 'object' && depth < 5; depth++) {
    const code = typeof cause.code === 'string' ? ` (${cause.code})` : '';
    stack += `\ncaused by: ${cause.name ?? 'Error'}${code}: ${safeMessage(cause)}`;
    cause = cause.cause as ErrorLike | undefined;
  }
  out.stack = stack;
  return out;
}
