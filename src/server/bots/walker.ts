/**
 * The bot runtime's core, shared by live sessions and the editor's preview: it applies one customer answer to the
 * node that waits for it, then runs nodes until one waits again or the session ends. Every side effect goes
 * through the `BotEnv` seam (messages, e-mails, handoff, HTTP, attribute writes), so the live runtime hands them
 * to the outbound path and the database, and the preview shows them in the panel and writes nothing.
 */
import type { BotNode, BotRfInstance, BotPreviewAnswer } from '../../shared';
import { botRuntime } from '../../shared/schemas/bot-canvas';
import { botGraph, type BotGraph } from '../../shared/bot-validation';
import type { BotEnv, ExecContext, Executor, RunState, StepResult, Turn, WalkGuard } from './executor-contract';
import { executors } from './executors';
import { fillAttributeVariables } from '../../shared/template-variables';

/** Values by attribute name: what was known, overlaid with what the session collected. */
function valuesByName(env: BotEnv, vars: Record<string, string>): Record<string, string> {
  // No prototype: an attribute named "__proto__" or "constructor" is a key like any other.
  const out: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, env.known);
  for (const [id, v] of Object.entries(vars)) {
    const a = env.attributes.get(id);
    if (a) out[a.name] = v;
  }
  return out;
}

function contextOf(g: BotGraph, env: BotEnv, state: RunState): ExecContext {
  return {
    g,
    env,
    state,
    fill: (text) => fillAttributeVariables(text ?? '', valuesByName(env, state.variables)),
    key: (block) => `${state.step}:${block}`,
    set: (attributeId, value) => {
      state.variables = { ...state.variables, [attributeId]: value };
    },
  };
}

function nodeOf(g: BotGraph, id: string | null): BotNode | null {
  return id ? ((g.nodes.get(id) as BotNode | undefined) ?? null) : null;
}

/**
 * Runs from the state's node: with an answer, first applies it to the waiting node; then walks until a node
 * waits, pauses for its network call, or the session ends. A walk of more than botRuntime.maxStepsWithoutAnswer
 * nodes without waiting is a loop: the session ends as failed (the caller hands the conversation to a human).
 * A session paused at a call (`waitingFor: 'call'`) resumes by entering that node again at the same step (so the
 * call keeps its key), with the loop guard's counts of the walk that paused (`guard`).
 */
export async function runTurn(rf: BotRfInstance, env: BotEnv, input: RunState, answer: BotPreviewAnswer | null, guard?: WalkGuard): Promise<Turn> {
  const g = botGraph(rf);
  const state: RunState = { ...input, variables: { ...input.variables } };
  const c = contextOf(g, env, state);
  let result: StepResult;
  const current = nodeOf(g, state.currentNodeId);
  if (!current) return { state: { ...state, currentNodeId: null, waitingFor: null }, ended: 'failed' };
  const resuming = state.waitingFor === 'call';
  if (resuming) {
    // A paused call takes no answer: the caller keeps the customer's messages for after it.
    if (answer) return { state, ended: null };
    result = await (executors[current.type] as Executor).enter(current, c);
  } else if (answer) {
    const exec = executors[current.type] as Executor;
    if (!state.waitingFor || !exec.answer) return { state, ended: null };
    state.step += 1;
    result = await exec.answer(current, answer, c);
  } else if (state.step === 0 || !state.waitingFor) {
    state.step += 1;
    result = await (executors[current.type] as Executor).enter(current, c);
  } else return { state, ended: null };

  let httpCalls = resuming && guard ? guard.httpCalls : current.type === 'HTTPRequestNode' ? 1 : 0;
  for (let walked = resuming && guard ? guard.walked : 0; ; walked++) {
    if ('end' in result) return { state: { ...state, waitingFor: null }, ended: result.end };
    if ('wait' in result) return { state: { ...state, waitingFor: result.wait }, ended: null };
    if ('pause' in result) return { state: { ...state, waitingFor: 'call' }, ended: null, guard: { walked, httpCalls } };
    const next = nodeOf(g, result.next);
    if (!next) return { state: { ...state, waitingFor: null }, ended: 'completed' };
    if (walked >= botRuntime.maxStepsWithoutAnswer) {
      env.note(next.id, `Loop guard: more than ${botRuntime.maxStepsWithoutAnswer} steps without an answer; handed to a person`);
      return { state: { ...state, currentNodeId: next.id, waitingFor: null }, ended: 'failed' };
    }
    if (next.type === 'HTTPRequestNode' && ++httpCalls > botRuntime.maxHttpCallsWithoutAnswer) {
      env.note(next.id, `Loop guard: more than ${botRuntime.maxHttpCallsWithoutAnswer} HTTP calls without an answer; handed to a person`);
      return { state: { ...state, currentNodeId: next.id, waitingFor: null }, ended: 'failed' };
    }
    state.currentNodeId = next.id;
    state.invalidAnswers = 0;
    state.waitingFor = null;
    state.step += 1;
    result = await (executors[next.type] as Executor).enter(next, c);
  }
}

/** The state a session starts in: at Start, nothing run yet. */
export function startState(rf: BotRfInstance): RunState {
  const start = rf.nodes.find((n) => n.type === 'StartNode');
  return { currentNodeId: start?.id ?? null, step: 0, waitingFor: null, invalidAnswers: 0, variables: {} };
}

/** Whether an inbound text starts a session of a bot whose Start node has this condition (default: any message). */
export function startsSession(rf: BotRfInstance, text: string | null): boolean {
  const start = rf.nodes.find((n) => n.type === 'StartNode');
  const cond = start?.type === 'StartNode' ? start.data.startCondition : undefined;
  if (!cond || cond.type === 'anyMessage') return true;
  const t = (text ?? '').trim().toLowerCase();
  return cond.keywords.some((k) => (cond.match === 'exact' ? t === k.trim().toLowerCase() : t.includes(k.trim().toLowerCase())));
}

/** The minutes of idle expiry of a version (Start node setting, or the default). */
export function idleMinutesOf(rf: BotRfInstance): number {
  const start = rf.nodes.find((n) => n.type === 'StartNode');
  return (start?.type === 'StartNode' && start.data.idleExpiryMinutes) || botRuntime.defaultIdleExpiryMinutes;
}

/** Minutes before the no-answer edge of the waiting node is due, when it has one. */
export function noAnswerMinutesOf(rf: BotRfInstance, state: RunState): number | null {
  if (!state.waitingFor || state.waitingFor === 'call') return null;
  const g = botGraph(rf);
  const node = nodeOf(g, state.currentNodeId);
  const minutes = node && 'noAnswerTimeoutMinutes' in node.data ? node.data.noAnswerTimeoutMinutes : undefined;
  return minutes && g.via(node!.id, botRuntime.noAnswerHandle) ? minutes : null;
}
