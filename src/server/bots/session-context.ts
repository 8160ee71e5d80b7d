/**
 * What the steps of a live bot session share: the runtime's deps, and one turn's scope (its transaction, the
 * workspace, and the effects it collects for the commit).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client';
import type { OutboundRequest } from '../messaging/outbound-request';
import type { NewEvent } from '../repositories/event-log';
import type { ServiceDeps } from '../services/context';

/** What the live runtime uses of the server. */
export type BotRuntimeDeps = Pick<ServiceDeps, 'db' | 'log' | 'jobs' | 'mailer' | 'identity'>;

export interface Runtime {
  d: BotRuntimeDeps;
  /** The runtime's logger (`area: bots`). */
  log: FastifyBaseLogger;
}

export interface BotMail { to: string[]; cc: string[]; bcc: string[]; subject: string; text: string }

/** What a turn collects, written or queued at its end in its transaction. */
export interface Effects {
  requests: OutboundRequest[];
  emails: BotMail[];
  /**
   * The turn's workspace events, appended last in its transaction: appending takes the workspace's event lock to
   * the commit, so appending early held every other writer of the workspace (the inbound store, other turns,
   * sends) for the whole turn.
   */
  events: NewEvent[];
  /** The turn's `bots.deliver` job, committed with it. */
  delivery?: { id: string; data: { workspaceId: string; requests: OutboundRequest[] } };
}

/** One turn: its transaction, the workspace and the effects it collects. */
export interface TurnScope {
  tx: Executor;
  ws: string;
  fx: Effects;
}
