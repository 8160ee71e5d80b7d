/** GET /contact/{contactId}/conversations: the contact's other conversations, for the sidebar. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { onlineOrCache } from '../../../lib/offline-data';
import { liveChatKeys } from './keys';

export function contactConversationsQueryOptions(contactId: string) {
  return queryOptions({
    queryKey: liveChatKeys.contactConversations(contactId),
    queryFn: ({ signal }) =>
      onlineOrCache(
        () => api('listContactConversations', { params: { contactId }, query: { limit: 20 }, signal }),
        // The cache lists conversations by tab only: offline the sidebar shows none rather than a partial list.
        async () => ({ items: [], nextCursor: null }),
      ),
  });
}

export function useContactConversations(contactId: string) {
  return useQuery(contactConversationsQueryOptions(contactId));
}
