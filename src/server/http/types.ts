import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDef, RouteName, Routes } from '../../shared/api/routes';
import type { CampaignKeyContext, Caller, WorkspaceContext } from '../services/caller';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type ContextFor<R extends RouteDef> = R['access'] extends { kind: 'public' }
  ? { caller: null }
  : R['access'] extends { kind: 'signedIn' }
    ? { caller: Caller }
    : R['access'] extends { kind: 'campaignKey' }
      ? CampaignKeyContext
      : WorkspaceContext;

export interface HandlerInput<R extends RouteDef> {
  params: Out<R['params']>;
  query: Out<R['query']>;
  body: Out<R['body']>;
  ctx: ContextFor<R>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A stream route's handler takes over the reply (it writes the stream itself) and answers nothing. */
export type Handler<R extends RouteDef> = (
  input: HandlerInput<R>,
) => Promise<R extends { stream: true } ? void : z.input<R['response']>>;

/** Routes whose capability has landed; every one of them must have a handler (checked by the compiler). */
export type ImplementedRouteName = { [K in RouteName]: Routes[K] extends { pending: string } ? never : K }[RouteName];
export type Handlers = { [K in ImplementedRouteName]: Handler<Routes[K]> };
