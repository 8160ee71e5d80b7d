import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { contractMessages } from '../../shared/messages';
import { httpErrorNames } from '../../shared/errors';
import { HttpError } from '../errors';
import { IdentityInputError } from '../auth/identity';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** Spec messages are shown as they are; others get the field they are about in front. */
function issueText(issue: ValidationIssue, context: string | undefined): string {
  const message = issue.message ?? 'Invalid value';
  if (contractMessages.has(message)) return message;
  const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (field) return `${field}: ${message}`;
  return context === 'body' || !context ? message : `${context}: ${message}`;
}

const body = (statusCode: number, message: string | string[]) => ({
  statusCode,
  message,
  error: httpErrorNames[statusCode] ?? 'Error',
});

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
