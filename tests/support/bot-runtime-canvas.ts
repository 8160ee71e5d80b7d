/**
 * Canvases and a recording seam for the bot runtime's unit tests (tests/server/bot-runtime-rules.test.ts): nodes and
 * edges as the editor stores them, and a `BotEnv` that records what the bot would send, mail, hand over and note,
 * with scripted HTTP outcomes. No app, database, sandbox or job queue.
 */
import type { BotNode, BotRfInstance } from '../../src/shared';
import type { AttributeInfo, BotEnv, BotMessage, HttpCall, HttpOutcome, RunState } from '../../src/server/bots/executor-contract';

type Of<T extends BotNode['type']> = Extract<BotNode, { type: T }>;

/** A node of a kind with its data (position and the editor's keys filled in). */
export function node<T extends BotNode['type']>(id: string, type: T, data: Of<T>['data']): Of<T> {
  return { id, type, position: { x: 0, y: 0 }, deletable: true, data } as unknown as Of<T>;
}

let edgeSeq = 0;
/** An edge from `source` to `target`, with a handle (noAnswer, failure, invalid, a branch id) when given. */
export function edge(source: string, target: string, sourceHandle?: string): BotRfInstance['edges'][number] {
  edgeSeq += 1;
  return { id: `e${edgeSeq}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) };
}

export const canvas = (nodes: BotNode[], edges: BotRfInstance['edges']): BotRfInstance => ({ nodes, edges }) as BotRfInstance;

/** The state a walk resumes from. */
export const state = (over: Partial<RunState> = {}): RunState => ({ currentNodeId: 'start', step: 0, waitingFor: null, invalidAnswers: 0, variables: {}, ...over });

export interface Sent { nodeId: string; key: string; message: BotMessage }
export interface Recorder {
  env: BotEnv;
  sent: Sent[];
  /** The texts sent, in order (the body of a question, the text of a message). */
  texts(): (string | null)[];
  emails: { nodeId: string; key: string; mail: { to: string[]; cc: string[]; bcc: string[]; subject: string; text: string } }[];
  handoffs: { nodeId: string; memberId: string; message: string; key: string }[];
  notes: { nodeId: string; text: string }[];
  calls: HttpCall[];
}

/** A recording seam: `attributes` by id, `known` values by attribute name, HTTP outcomes answered in turn. */
export function recorder(opts: { attributes?: AttributeInfo[]; known?: Record<string, string>; http?: HttpOutcome[] } = {}): Recorder {
  const sent: Sent[] = [];
  const rec: Recorder = {
    sent,
    texts: () => sent.map((s) => s.message.text),
    emails: [],
    handoffs: [],
    notes: [],
    calls: [],
    env: {
      attributes: new Map((opts.attributes ?? []).map((a) => [a.id, a])),
      known: opts.known ?? {},
      send: (nodeId, key, message) => sent.push({ nodeId, key, message }),
      email: (nodeId, key, mail) => rec.emails.push({ nodeId, key, mail }),
      handoff: (nodeId, memberId, message, key) => rec.handoffs.push({ nodeId, memberId, message, key }),
      http: (call) => {
        rec.calls.push(call);
        return Promise.resolve(opts.http?.shift() ?? { ok: false, reason: 'no scripted answer' });
      },
      note: (nodeId, text) => rec.notes.push({ nodeId, text }),
    },
  };
  return rec;
}

/** A bot message with the fields a kind leaves empty. */
export const msg = (nodeId: string, type: BotMessage['type'], fields: Partial<BotMessage> = {}): BotMessage => ({
  nodeId,
  type,
  text: null,
  header: null,
  footer: null,
  mediaUrl: null,
  filename: null,
  buttons: [],
  actionLabel: null,
  ...fields,
});
