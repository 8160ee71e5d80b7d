/**
 * POST /conversation/{conversationId}/read (addition): the agent opened the conversation, or a customer message
 * arrived while it is on screen. Clears its unread marker in the lists at once and refreshes the tab counts
 * (whose unread figure drives the desktop badge).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ConversationDetail, Message } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { useConnectivity } from '../../../lib/connectivity';
import { onlineOrCache } from '../../../lib/offline-data';
import type { ConversationPages } from '../utils/cache-updates';
import { liveChatKeys } from './keys';

/** The newest customer message of the conversation (a new one makes it unread again). */
export function latestInboundId(messages: readonly Message[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].creator === 'user') return messages[i].id;
  return null;
}

export function useMarkRead(conversationId: string, workspaceId: string, inboundId: string | null) {
  const qc = useQueryClient();
  const online = useConnectivity((s) => s.online);
  useEffect(() => {
    // Offline the server cannot hear it; it is sent when the conversation is shown online again.
    if (!online) return;
    let live = true;
    for (const [key, data] of qc.getQueriesData<ConversationPages>({ queryKey: liveChatKeys.conversations(workspaceId) })) {
      if (!data?.pages.some((p) => p.items.some((x) => x.id === conversationId && x.unread))) continue;
      qc.setQueryData<ConversationPages>(key, {
        ...data,
        pages: data.pages.map((p) => ({ ...p, items: p.items.map((x) => (x.id === conversationId ? { ...x, unread: false } : x)) })),
      });
    }
    // Unreachable after all: sent again when the server is back (`online` changes).
    onlineOrCache(() => api('markConversationRead', { params: { conversationId } }).then(() => true), async () => false)
      .then((sent) => {
        if (!sent) return;
        // Read up to the newest message held: the next opening draws no "New messages" divider above these.
        qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(conversationId), (d) => {
          const newest = d?.Message[d.Message.length - 1]?.createdAt;
          return d && newest && (!d.readAt || d.readAt < newest) ? { ...d, readAt: newest } : d;
        });
        if (live) void qc.invalidateQueries({ queryKey: liveChatKeys.counts(workspaceId) });
      })
      .catch((err) => console.warn('[live-chat] could not mark the conversation read', err));
    return () => {
      live = false;
    };
  }, [qc, conversationId, workspaceId, inboundId, online]);
}
