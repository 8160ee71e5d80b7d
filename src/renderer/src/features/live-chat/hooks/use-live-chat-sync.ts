/**
 * Keeps live chat's cached queries current from the workspace event stream, without refetching what the
 * event already carries: new messages are appended, statuses updated, conversations moved between tabs.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type { Conversation, ConversationDetail, ConversationListEntry, Message } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { type WorkspaceEvent, useWorkspaceEvents, useWorkspaceEventsReset } from '../../../lib/workspace-events';
import { liveChatKeys } from '../api/keys';
import { type ConversationPages, applyConversation, findConversation, withMessage } from '../utils/cache-updates';
import type { LiveChatTab } from '../utils/tabs';
import { mergeMessages } from '../utils/timeline';
import { toast } from 'sonner';
import { mentionKeys } from '../api/list-mentions';

type ListKey = readonly ['live-chat', 'conversations', string, LiveChatTab, string];

function lists(qc: QueryClient, workspaceId: string) {
  return qc.getQueriesData<ConversationPages>({ queryKey: liveChatKeys.conversations(workspaceId) }) as [ListKey, ConversationPages | undefined][];
}

/** The conversation as a list entry, from any list or detail already cached, else asked of the server. */
async function entryFor(qc: QueryClient, workspaceId: string, conversation: Conversation, message?: Message): Promise<ConversationListEntry | null> {
  for (const [, data] of lists(qc, workspaceId)) {
    const hit = findConversation(data, conversation.id);
    if (hit) return message ? withMessage({ ...hit, ...conversation }, message) : { ...hit, ...conversation };
  }
  let detail = qc.getQueryData<ConversationDetail>(liveChatKeys.conversation(conversation.id));
  if (!detail) {
    try {
      detail = await api('getConversation', { params: { conversationId: conversation.id } });
    } catch {
      return null;
    }
  }
  const last = message ?? detail.Message[detail.Message.length - 1] ?? null;
  const { ConversationEvent: _e, Message: _m, Contact, ...rest } = detail;
  return { ...rest, ...conversation, Contact, lastMessage: last, lastMessageAt: last?.createdAt ?? conversation.lastMessageAt };
}

function updateMessageEverywhere(qc: QueryClient, m: Message) {
  qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(m.conversationId), (old) =>
    old ? { ...old, Message: mergeMessages(old.Message, [m]) } : old,
  );
  qc.setQueryData<Message[]>(liveChatKeys.olderMessages(m.conversationId), (old) =>
    old?.some((x) => x.id === m.id) ? old.map((x) => (x.id === m.id ? m : x)) : old,
  );
}

export function useLiveChatSync(workspaceId: string, memberId: string | null) {
  const qc = useQueryClient();
  const countsTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const fetching = useRef(new Set<string>());

  const refreshCounts = useCallback(() => {
    if (countsTimer.current) return;
    countsTimer.current = setTimeout(() => {
      countsTimer.current = null;
      void qc.invalidateQueries({ queryKey: liveChatKeys.counts(workspaceId) });
    }, 300);
  }, [qc, workspaceId]);

  const placeEverywhere = useCallback(
    (entry: ConversationListEntry) => {
      for (const [key, data] of lists(qc, workspaceId)) {
        if (!data) continue;
        const [, , , tab, search] = key;
        qc.setQueryData<ConversationPages>(key, applyConversation(data, entry, tab, search, memberId));
      }
    },
    [qc, workspaceId, memberId],
  );

  // Changes were missed for good (the server pruned the events after our last one): every cached list, count
  // and conversation may be stale, so all of them are refetched.
  useWorkspaceEventsReset(workspaceId, () => void qc.invalidateQueries());

  useWorkspaceEvents(workspaceId, (e: WorkspaceEvent) => {
    switch (e.type) {
      case 'message.created': {
        const m = e.payload.message;
        updateMessageEverywhere(qc, m);
        let known: ConversationListEntry | undefined;
        for (const [, data] of lists(qc, workspaceId)) known ??= findConversation(data, m.conversationId);
        if (known) placeEverywhere(withMessage(known, m));
        else if (m.creator === 'user' && !fetching.current.has(m.conversationId)) {
          // A customer wrote in a conversation beyond the loaded pages: bring it to the top. (Outbound messages,
          // e.g. a campaign's thousands, do not each cost a request: the lists are refreshed when next shown.)
          fetching.current.add(m.conversationId);
          const detail = qc.getQueryData<ConversationDetail>(liveChatKeys.conversation(m.conversationId));
          void entryFor(qc, workspaceId, detail ?? ({ id: m.conversationId } as Conversation), m)
            .then((entry) => entry && placeEverywhere(entry))
            .finally(() => fetching.current.delete(m.conversationId));
        } else {
          void qc.invalidateQueries({ queryKey: liveChatKeys.conversations(workspaceId), refetchType: 'none' });
        }
        void qc.invalidateQueries({ queryKey: ['live-chat', 'contact-conversations'], refetchType: 'none' });
        // The unread figures (and the desktop badge) move with customer messages.
        if (m.creator === 'user') refreshCounts();
        break;
      }
      case 'message.status': {
        const m = e.payload.message;
        updateMessageEverywhere(qc, m);
        for (const [key, data] of lists(qc, workspaceId)) {
          const hit = findConversation(data, m.conversationId);
          if (data && hit?.lastMessage?.id === m.id) {
            qc.setQueryData<ConversationPages>(key, {
              ...data,
              pages: data.pages.map((p) => ({ ...p, items: p.items.map((x) => (x.id === hit.id ? { ...x, lastMessage: m } : x)) })),
            });
          }
        }
        break;
      }
      case 'conversation.opened': {
        placeEverywhere(e.payload.conversation);
        refreshCounts();
        break;
      }
      case 'conversation.updated': {
        const c = e.payload.conversation;
        qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(c.id), (old) => (old ? { ...old, ...c } : old));
        // The change recorded an event (assigned, closed, reopened) for the timeline.
        void qc.invalidateQueries({ queryKey: liveChatKeys.conversation(c.id), exact: true });
        void entryFor(qc, workspaceId, c).then((entry) => entry && placeEverywhere(entry));
        refreshCounts();
        break;
      }
      case 'contact.updated': {
        const contact = e.payload.contact;
        for (const [key, data] of lists(qc, workspaceId)) {
          if (!data?.pages.some((p) => p.items.some((x) => x.contactId === contact.id))) continue;
          qc.setQueryData<ConversationPages>(key, {
            ...data,
            pages: data.pages.map((p) => ({ ...p, items: p.items.map((x) => (x.contactId === contact.id ? { ...x, Contact: contact } : x)) })),
          });
        }
        for (const [key, detail] of qc.getQueriesData<ConversationDetail>({ queryKey: ['live-chat', 'conversation'] })) {
          if (detail && !Array.isArray(detail) && detail.contactId === contact.id) qc.setQueryData(key, { ...detail, Contact: contact });
        }
        break;
      }
      // A deleted contact took its conversations with it: they leave every list, and an open one is dropped.
      case 'contact.deleted': {
        const { contactId } = e.payload;
        for (const [key, data] of lists(qc, workspaceId)) {
          if (!data?.pages.some((p) => p.items.some((x) => x.contactId === contactId))) continue;
          qc.setQueryData<ConversationPages>(key, {
            ...data,
            pages: data.pages.map((p) => ({ ...p, items: p.items.filter((x) => x.contactId !== contactId) })),
          });
        }
        for (const [key, detail] of qc.getQueriesData<ConversationDetail>({ queryKey: ['live-chat', 'conversation'] })) {
          if (detail && !Array.isArray(detail) && detail.contactId === contactId) qc.removeQueries({ queryKey: key, exact: true });
        }
        void qc.invalidateQueries({ queryKey: ['live-chat', 'contact-conversations'], refetchType: 'none' });
        refreshCounts();
        break;
      }
      // A note mentioned me: the mentions view and its count are refetched, and it says so.
      case 'mention.created': {
        const mention = e.payload.mention;
        if (mention.memberId !== memberId) break;
        void qc.invalidateQueries({ queryKey: mentionKeys.all(workspaceId) });
        toast(`You were mentioned: ${mention.contact.name ?? mention.contact.phoneNumber}`, { description: mention.message.text ?? undefined });
        break;
      }
      default:
        break;
    }
  });
}
