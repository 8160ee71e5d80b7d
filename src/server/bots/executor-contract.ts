/**
 * What the walker and the node executors share: the state of a walk, the `BotEnv` seam every side effect goes
 * through, and the executor contract (what a node kind runs on entry and on an answer). A module of its own so
 * that the walker, the executors and the HTTP node all depend on it and none on another's types.
 */
import type { BotNode, BotPreviewMessage, BotPreviewAnswer } from '../../shared';
import type { BotGraph } from '../../shared/bot-validation';

export type Waiting = 'input' | 'reply' | 'list' | 'flow';
export type EndReason = 'completed' | 'handoff' | 'failed' | 'expired' | 'member' | 'bot_stopped';

export interface RunState {
  currentNodeId: string | null;
  /** Nodes run (and questions asked again) so far: with the block index, the idempotency key of a send. */
  step: number;
  /** What the session waits for: the customer (a Waiting kind), or `call`: the current node's network call. */
  waitingFor: Waiting | 'call' | null;
  invalidAnswers: number;
  /** Values collected in this session, by attribute id. */
  variables: Record<string, string>;
}

/** A message of the bot, as neutral as WhatsApp's own kinds; `flowId` for flows. */
export type BotMessage = BotPreviewMessage & { flowId?: string };

export interface AttributeInfo {
  id: string;
  name: string;
  format: 'text' | 'number' | 'boolean';
  type: 'contact' | 'conversation';
}

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  body?: string;
  contentType?: string;
  timeoutMs: number;
}
/** A call's outcome; `reason` may be shown to the workspace, `detail` (addresses, resolver errors) only logged. */
export type HttpOutcome = { ok: true; status: number; json: unknown; text: string } | { ok: false; reason: string; status?: number; detail?: string };

export interface BotEnv {
  attributes: Map<string, AttributeInfo>;
  /** Values known before the session (the contact's and conversation's attributes), by attribute name. */
  known: Record<string, string>;
  /** The bot sends a message; `key` is `<step>:<block>`, unique per send of a session. */
  send(nodeId: string, key: string, message: BotMessage): void;
  email(nodeId: string, key: string, mail: { to: string[]; cc: string[]; bcc: string[]; subject: string; text: string }): void;
  handoff(nodeId: string, memberId: string, message: string, key: string): void;
  /**
   * An HTTPRequest node's call; `key` (`<step>:0`) names it, so a retried turn's call carries the same
   * Idempotency-Key. Null: the call is recorded, to be made once the turn has committed; the walk pauses at the node
   * and resumes there with the outcome (a live session never waits for the network inside its transaction).
   */
  http(call: HttpCall, at: { nodeId: string; key: string }): Promise<HttpOutcome | null>;
  /** What the preview shows of an effect that happens off the chat; the live runtime logs it. */
  note(nodeId: string, text: string): void;
}

/** How far a walk went without the customer: the loop guard's counts, carried over a pause. */
export interface WalkGuard {
  walked: number;
  httpCalls: number;
}

export interface Turn {
  state: RunState;
  ended: EndReason | null;
  /** Set when the walk paused at a network call (`waitingFor: 'call'`): the counts the resumed walk goes on from. */
  guard?: WalkGuard;
}

/** What one executor decides: go on to a node, wait for the customer, pause for its network call, or end. */
export type StepResult = { next: string | null } | { wait: Waiting } | { end: EndReason } | { pause: 'call' };

export interface ExecContext {
  g: BotGraph;
  env: BotEnv;
  state: RunState;
  /** Template text with `{{attribute name}}` filled from what is known and collected. */
  fill(text: string | undefined): string;
  /** `<step>:<block>` for the current node's sends. */
  key(block: number): string;
  set(attributeId: string, value: string): void;
}

export type Executor<N extends BotNode = BotNode> = {
  /** Runs the node when the walk reaches it. */
  enter(node: N, c: ExecContext): Promise<StepResult> | StepResult;
  /** Applies the customer's answer to the node that waits (only waiting kinds). */
  answer?(node: N, a: BotPreviewAnswer, c: ExecContext): Promise<StepResult> | StepResult;
};
