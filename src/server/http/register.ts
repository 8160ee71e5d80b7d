import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type RouteDef, routes, routeNames } from '../../shared/api/routes';
import { ErrorBody } from '../../shared/errors';
import { notImplemented } from '../errors';
import { type AccessDeps, accessOptionsFor, resolveAccess } from '../auth/access';
import type { Handler, Handlers } from './types';

export interface RateLimitConfig {
  signUpPerMinute: number;
  invitePerMinute: number;
}

/** Routes that a stranger can call many times cheaply are rate-limited per client. */
function rateLimitFor(name: string, limits: RateLimitConfig) {
  if (name === 'signUp' || name === 'signUpWithInvite') return { max: limits.signUpPerMinute, timeWindow: '1 minute' };
  if (name === 'validateInvitee' || name === 'acceptInvitee') return { max: limits.invitePerMinute, timeWindow: '1 minute' };
  return undefined;
}

const errorResponses = Object.fromEntries([400, 401, 403, 404, 409, 429, 501].map((s) => [s, ErrorBody]));

/** Registers every route of the shared table; pending ones check access and then answer 501. */
export function registerRoutes(app: FastifyInstance, handlers: Handlers, deps: AccessDeps, limits: RateLimitConfig): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const name of routeNames) {
    const def: RouteDef = routes[name];
    const handler = (handlers as Partial<Record<string, Handler<RouteDef>>>)[name];
    if (!def.pending && !handler) throw new Error(`Route ${name} has no handler`);
    const rateLimit = rateLimitFor(name, limits);
    typed.route({
      method: def.method,
      url: def.path,
      config: rateLimit ? { rateLimit } : {},
      schema: {
        operationId: name,
        tags: [def.tag],
        summary: def.summary + (def.addition ? ' (addition to the product contract)' : ''),
        description: def.pending ? `Not available yet: ${def.pending}` : undefined,
        ...(def.access.kind === 'public' ? {} : { security: [{ bearerAuth: [] }] }),
        ...(def.params ? { params: def.params } : {}),
        ...(def.query ? { querystring: def.query } : {}),
        ...(def.body ? { body: def.body } : {}),
        ...(def.multipart ? { consumes: ['multipart/form-data'] } : {}),
        ...(def.stream ? { produces: ['text/event-stream'] } : {}),
        response: { [def.status]: def.response, ...errorResponses },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        // A browser's EventSource cannot send headers: a stream also takes the token from ?token=.
        const queryToken = (request.query as { token?: unknown } | undefined)?.token;
        if (def.stream && !request.headers.authorization && typeof queryToken === 'string') {
          request.headers.authorization = `Bearer ${queryToken}`;
        }
        const ctx = await resolveAccess(def.access, request, deps, accessOptionsFor(def));
        if (def.pending || !handler) throw notImplemented(def.pending ?? 'Not implemented');
        const result = await handler({
          params: request.params as never,
          query: request.query as never,
          body: request.body as never,
          ctx: ctx as never,
          request,
          reply,
        });
        if (def.stream) return reply; // the handler has taken the reply over
        return reply.code(def.status).send(result);
      },
    });
  }
}
