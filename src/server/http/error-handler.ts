import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { contractMessages } from '../../shared/messages';
import { toStorableText, unstorableTextMessage } from '../../shared/zod';
import { httpErrorNames } from '../../shared/errors';
import { HttpError } from '../errors';
import { IdentityInputError } from '../identity/identity-provider';

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { errors?: { code?: string; message?: string }[][]; issues?: { message?: string }[] };
}

/**
 * The message that says what is wrong: for a union (an attribute value), that of the branch of the value's
 * own type, e.g. a string with a NUL; for a record key, the key's own issue; else the issue's message.
 */
function messageOf(issue: ValidationIssue): string {
  if (issue.keyword === 'invalid_union') {
    const branch = issue.params?.errors?.find((b) => b.length > 0 && b.every((i) => i.code !== 'invalid_type'));
    if (branch?.[0]?.message) return branch[0].message;
  }
  if (issue.keyword === 'invalid_key' && issue.params?.issues?.[0]?.message) return issue.params.issues[0].message;
  return issue.message ?? 'Invalid value';
}

/** Refused input is echoed in field paths and messages: characters no answer may carry become U+FFFD. */
const printable = toStorableText;

/** PostgreSQL's refusals of text it cannot hold (NUL, invalid encoding): input that got past a schema. */
function isUnstorableText(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return ['22021', '22P05'].includes(e?.code ?? '') || ['22021', '22P05'].includes(e?.cause?.code ?? '');
}

/**
 * PostgreSQL could not read a text as a uuid: an id given as text that is no id got past a guard. No row can
 * carry it, so the answer is the one for a row that does not exist, never a 500.
 */
function isUnreadableUuid(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const of = (x?: { code?: string; message?: string }) => x?.code === '22P02' && /type uuid/.test(x.message ?? '');
  return of(e) || of(e?.cause);
}

/** Spec messages are shown as they are; others get the field they are about in front. */
function issueText(issue: ValidationIssue, context: string | undefined): string {
  const message = messageOf(issue);
  if (contractMessages.has(message)) return message;
  const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (field) return `${field}: ${message}`;
  return context === 'body' || !context ? message : `${context}: ${message}`;
}

const body = (statusCode: number, message: string | string[]) => ({
  statusCode,
  message: Array.isArray(message) ? message.map(printable) : printable(message),
  error: httpErrorNames[statusCode] ?? 'Error',
});

/**
 * Errors the router raises before any route or hook runs (an address it cannot decode, a path parameter
 * longer than it takes): the same `{ statusCode, message, error }`, without echoing the address.
 */
export function frameworkError(err: FastifyError, _request: unknown, reply: FastifyReply): void {
  const statusCode = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : typeof err.statusCode === 'number' && err.statusCode < 500 ? err.statusCode : 400;
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is longer than this server accepts' : 'The address could not be read';
  void reply.code(statusCode).send(body(statusCode, message));
}

/** The one error handler: `{ statusCode, message, error }`, with 5xx details kept in the log only. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const ctx = (err as { validationContext?: string }).validationContext;
      const list = [...new Set((err.validation as ValidationIssue[]).map((i) => issueText(i, ctx)))];
      return reply.code(400).send(body(400, list));
    }
    if (err instanceof HttpError) {
      if (err.statusCode >= 500 && err.statusCode !== 501) request.log.error({ err }, 'request failed');
      return reply.code(err.statusCode).send({ ...body(err.statusCode, err.messages), ...(err.extra ?? {}) });
    }
    if (err instanceof IdentityInputError) return reply.code(err.statusCode).send(body(err.statusCode, err.message));
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause?.issues }, 'response does not match its schema');
      return reply.code(500).send(body(500, 'Internal Server Error'));
    }
    if (isUnstorableText(err)) return reply.code(400).send(body(400, unstorableTextMessage));
    if (isUnreadableUuid(err)) {
      request.log.warn('an id that is no uuid reached the database');
      return reply.code(404).send(body(404, 'Not found'));
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, wrong content type, body too large, rate limit).
      return reply.code(status).send(body(status, err.message));
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(body(500, 'Internal Server Error'));
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(body(404, `Cannot ${request.method} ${request.url.split('?')[0]}`)),
  );
}
