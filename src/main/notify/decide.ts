// Which stream events deserve a native notification, for this agent, now. Plain function over the events
// and the cache as it was before them (to tell "newly assigned to me" from "still mine").
import type { WorkspaceEvent } from '../../shared';
import { contactLabel } from '../../shared/contact-label';
import type { NotificationKind, NotificationSettings } from '../../shared/ipc';
import type { WorkspaceCache } from '../cache/workspace-cache';

export interface Notice {
  kind: NotificationKind;
  conversationId: string;
  title: string;
  body: string;
}

export interface NotifyContext {
  /** the agent's member id in this workspace (null: unknown yet, nothing is "mine") */
  memberId: string | null;
  settings: NotificationSettings;
  /** the conversation open in the window, and whether the window has the focus */
  viewing: { conversationId: string | null; focused: boolean };
}

type Before = Pick<WorkspaceCache, 'conversation'>;

const preview = (text: string | null | undefined, fallback: string) => {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  if (!line) return fallback;
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
};

export function decideNotifications(events: readonly WorkspaceEvent[], before: Before, ctx: NotifyContext): Notice[] {
  const notices: Notice[] = [];
  // what this batch learnt so far, on top of the cache's state before it
  const assignee = new Map<string, string | null>();
  const names = new Map<string, string>();
  const opened = new Set<string>();
  const assigneeOf = (id: string) => (assignee.has(id) ? assignee.get(id)! : (before.conversation(id)?.assigneeMemberId ?? null));
  const nameOf = (id: string) => {
    const known = names.get(id);
    if (known) return known;
    const cached = before.conversation(id)?.Contact;
    return cached ? contactLabel(cached) : 'A customer';
  };

  const push = (notice: Notice) => {
    if (!ctx.settings[notice.kind]) return;
    if (ctx.viewing.focused && ctx.viewing.conversationId === notice.conversationId) return;
    // one notification per conversation per batch: the first reason wins
    if (notices.some((n) => n.conversationId === notice.conversationId)) return;
    notices.push(notice);
  };

  for (const event of events) {
    switch (event.type) {
      case 'conversation.opened': {
        const c = event.payload.conversation;
        names.set(c.id, contactLabel(c.Contact));
        assignee.set(c.id, c.assigneeMemberId);
        opened.add(c.id);
        push({ kind: 'newConversation', conversationId: c.id, title: `New conversation: ${nameOf(c.id)}`, body: preview(c.lastMessage?.text, 'New message') });
        break;
      }
      case 'conversation.updated': {
        const c = event.payload.conversation;
        const was = assigneeOf(c.id);
        assignee.set(c.id, c.assigneeMemberId);
        if (ctx.memberId && c.isActive && c.assigneeMemberId === ctx.memberId && was !== ctx.memberId) {
          push({ kind: 'assignedToMe', conversationId: c.id, title: `Assigned to you: ${nameOf(c.id)}`, body: 'A conversation was assigned to you' });
        }
        break;
      }
      case 'message.created': {
        const m = event.payload.message;
        if (m.creator !== 'user' || opened.has(m.conversationId)) break;
        if (ctx.memberId && assigneeOf(m.conversationId) === ctx.memberId) {
          push({ kind: 'inboundMessage', conversationId: m.conversationId, title: nameOf(m.conversationId), body: preview(m.text, `New ${m.type} message`) });
        }
        break;
      }
      // A bot's HumanHandoff gave this agent the conversation; notified as an assignment, saying which
      // bot handed it over and what it told the customer (comes before its conversation.updated).
      case 'bot.handoff': {
        const h = event.payload;
        names.set(h.conversationId, contactLabel(h.contact));
        if (!ctx.memberId || h.memberId !== ctx.memberId) break;
        assignee.set(h.conversationId, h.memberId);
        push({ kind: 'assignedToMe', conversationId: h.conversationId, title: `${h.botName} handed you ${nameOf(h.conversationId)}`, body: preview(h.message, 'A bot handed this conversation to you') });
        break;
      }
      // A bot gave up on a conversation: it is nobody's, so every agent is told (the new-conversation setting).
      case 'bot.needsPerson': {
        const h = event.payload;
        names.set(h.conversationId, h.contact.name ?? h.contact.phoneNumber);
        assignee.set(h.conversationId, null);
        push({ kind: 'newConversation', conversationId: h.conversationId, title: `Needs a person: ${nameOf(h.conversationId)}`, body: `${h.botName} could not finish; the conversation waits for a person` });
        break;
      }
      // A note mentioned this agent; notified like an assignment (same setting).
      case 'mention.created': {
        const mention = event.payload.mention;
        if (!ctx.memberId || mention.memberId !== ctx.memberId) break;
        const who = mention.contact.name ?? mention.contact.phoneNumber;
        push({ kind: 'assignedToMe', conversationId: mention.conversationId, title: `You were mentioned: ${who}`, body: preview(mention.message.text, 'A note mentions you') });
        break;
      }
      default:
        break;
    }
  }
  return notices;
}
