/**
 * GET /conversation/{conversationId}/messages?before= (addition): older messages than the detail carries, kept
 * in their own cache entry (oldest first) so a refetch of the detail never drops history the user scrolled to.
 * The component using this is keyed by conversation id, so its state starts over for another conversation.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { Message } from '@shared/schemas/entities';
import { api, toastError } from '../../../lib/api-client';
import { useConnectivity } from '../../../lib/connectivity';
import { mergeMessages } from '../utils/timeline';
import { liveChatKeys } from './keys';

export const OLDER_PAGE_SIZE = 200;
const none: Message[] = [];

export function useOlderMessages(conversationId: string, initiallyMore: boolean) {
  const qc = useQueryClient();
  const { data: older = none } = useQuery({
    queryKey: liveChatKeys.olderMessages(conversationId),
    // Filled only by loadOlder (and live status updates); never fetched on its own.
    queryFn: () => qc.getQueryData<Message[]>(liveChatKeys.olderMessages(conversationId)) ?? none,
    enabled: false,
    staleTime: Infinity,
  });
  const [hasMore, setHasMore] = useState(initiallyMore);
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  const loadOlder = useCallback(
    /** Answers the page loaded (oldest messages before `oldestId`), or null when nothing was loaded. */
    async (oldestId: string): Promise<Message[] | null> => {
      // Offline, the cached conversation is all there is.
      if (busy.current || !hasMore || !useConnectivity.getState().online) return null;
      busy.current = true;
      setLoading(true);
      try {
        const page = await api('listConversationMessages', {
          params: { conversationId },
          query: { before: oldestId, limit: OLDER_PAGE_SIZE },
        });
        qc.setQueryData<Message[]>(liveChatKeys.olderMessages(conversationId), (old) => mergeMessages(old ?? [], page.items));
        setHasMore(page.nextCursor !== null);
        return page.items;
      } catch (err) {
        toastError(err);
        return null;
      } finally {
        busy.current = false;
        setLoading(false);
      }
    },
    [conversationId, hasMore, qc],
  );

  return { older, hasMore, loading, loadOlder };
}
