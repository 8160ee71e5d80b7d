/**
 * The editor's preview: the draft as it stands, run by the same walker and executors as live sessions, against a
 * simulated customer. The output seam collects what WhatsApp would show; e-mails and handoffs become notes, HTTP
 * calls are made under the same network rule. Nothing is written: the session state travels with the client.
 */
import type { BotPreviewAnswer, BotPreviewSession, BotPreviewTurn, BotRfInstance } from '../../shared';
import { validateBotCanvas } from '../../shared/bot-validation';
import { HttpError, notFound } from '../errors';
import * as r from '../repositories/resources';
import { attributesOf } from '../repositories/attributes';
import { workspaceMembersOf } from '../repositories/workspaces';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';
import { loggedFetch } from './http-node';
import { memberNames, unnamedMember } from './member-names';
import type { AttributeInfo, BotEnv, BotMessage, RunState } from './executor-contract';
import { runTurn, startState } from './walker';

export function botPreview(d: ServiceDeps) {
  async function load(ctx: WorkspaceContext, botId: string) {
    const bot = await r.bots.get(d.db.db, ctx.workspaceId, botId);
    if (!bot) throw notFound('Bot not found');
    const [attrs, members] = await Promise.all([attributesOf(d.db.db, ctx.workspaceId), workspaceMembersOf(d.db.db, ctx.workspaceId)]);
    const rf = bot.rfInstance as BotRfInstance;
    const problems = validateBotCanvas(rf, { attributes: attrs, memberIds: members.map((m) => m.member.id) });
    if (problems.length) throw new HttpError(400, problems.map((p) => p.message), { problems });
    const attributes = new Map<string, AttributeInfo>(attrs.map((a) => [a.id, { id: a.id, name: a.name, format: a.format, type: a.type }]));
    const handedTo = rf.nodes.flatMap((n) => (n.type === 'HumanHandoffNode' && n.data.assigneeMemberId ? [n.data.assigneeMemberId as string] : []));
    const names = await memberNames(d, d.db.db, ctx.workspaceId, handedTo);
    return { rf, attributes, names };
  }

  async function turn(ctx: WorkspaceContext, botId: string, session: BotPreviewSession | null, answer: BotPreviewAnswer | null): Promise<BotPreviewTurn> {
    const { rf, attributes, names } = await load(ctx, botId);
    const messages: BotMessage[] = [];
    const note = (nodeId: string, text: string) =>
      messages.push({ nodeId, type: 'note', text, header: null, footer: null, mediaUrl: null, filename: null, buttons: [], actionLabel: null });
    const env: BotEnv = {
      attributes,
      known: {},
      send: (_nodeId, _key, m) => messages.push(m),
      email: (nodeId, _key, m) => note(nodeId, `E-mail "${m.subject}" to ${[...m.to, ...m.cc, ...m.bcc].join(', ')} (not sent in the preview)`),
      handoff: (nodeId, memberId, text) => {
        if (text.trim()) messages.push({ nodeId, type: 'text', text, header: null, footer: null, mediaUrl: null, filename: null, buttons: [], actionLabel: null });
        note(nodeId, `Conversation handed to ${names.get(memberId) ?? unnamedMember}`);
      },
      http: (call, at) => loggedFetch(d.log, call, { botId, nodeId: at.nodeId, preview: true }),
      note,
    };
    if (session?.ended) return { session, messages: [], currentNodeId: null, attributes: {}, ended: true, endReason: null };
    const state: RunState = session ?? startState(rf);
    const result = await runTurn(rf, env, state, session ? answer : null);
    const ended = result.ended !== null;
    const collected = Object.fromEntries(
      Object.entries(result.state.variables).flatMap(([id, v]) => (attributes.has(id) ? [[attributes.get(id)!.name, v]] : [])),
    );
    return {
      // The preview's calls answer at once (its http never pauses), so it never waits for one.
      session: { ...result.state, waitingFor: result.state.waitingFor === 'call' ? null : result.state.waitingFor, ended },
      messages,
      currentNodeId: ended ? null : result.state.currentNodeId,
      attributes: collected,
      ended,
      endReason: result.ended,
    };
  }

  return {
    start: (ctx: WorkspaceContext, botId: string) => turn(ctx, botId, null, null),
    answer: (ctx: WorkspaceContext, botId: string, session: BotPreviewSession, answer: BotPreviewAnswer) => turn(ctx, botId, session, answer),
  };
}
