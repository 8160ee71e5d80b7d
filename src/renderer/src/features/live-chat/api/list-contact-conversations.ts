/** GET /contact/{contactId}/conversations: the contact's other conversations, for the sidebar. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { liveChatKeys } from './keys';

export function contactConversationsQueryOptions(contactId: string) {
  return queryOptions({
    queryKey: liveChatKeys.contactConversations(contactId),
    queryFn: ({ signal }) => api('listContactConversations', { params: { contactId }, query: { limit: 20 }, signal }),
  });
}

export function useContactConversations(contactId: string) {
  return useQuery(contactConversationsQueryOptions(contactId));
}
