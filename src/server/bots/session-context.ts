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
export type BotRuntimeDeps = Pick<ServiceDeps, 'db' | 'log' | 'jobs' | 'mailer' | 'identity' | 'config' | 'metrics'>;

export interface Runtime {
  d: BotRuntimeDeps;
  /** The runtime's logger (`area: bots`). */
  log: FastifyBaseLogger;
}

export interface BotMail { to: string[]; cc: string[]; bcc: string[]; subject: string; text: string }
/** A SendEmail node's mail as its job carries it: with the session and the key that names it (sent once). */
export interface KeyedBotMail extends BotMail { sessionId?: string; key?: string }

/** A paused walk's call, recorded in the turn and made once the turn committed (`bots.call`). */
export interface CallJob { workspaceId: string; sessionId: string; key: string }

/** What a turn collects, written or queued at its end in its transaction. */
export interface Effects {
  requests: OutboundRequest[];
  emails: KeyedBotMail[];
  /** The `bots.call` job of a walk that paused at a network call, committed with the turn. */
  calls: { id: string; data: CallJob }[];
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
