/**
 * PATCH /contact/{contactId}: name, e-mail, country and attribute values, from the audience's contact dialog or
 * a conversation's sidebar. Both screens show the change: the audience lists and every loaded conversation.
 */
import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact, ConversationDetail } from '@shared/schemas/entities';
import { type ApiBody, api } from '../api-client';
import { contactListsKey, conversationListsKey, liveChatKey } from './contact-keys';

type Pages = InfiniteData<{ items: Contact[]; nextCursor: string | null }, string | undefined>;

export function usePatchContact(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, body }: { contactId: string; body: ApiBody<'patchContact'> }) =>
      api('patchContact', { params: { contactId }, body }),
    onSuccess: (contact) => {
      // Show the change at once in every loaded list, then let the lists re-check their filters.
      for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: contactListsKey(workspaceId) })) {
        if (!data) continue;
        qc.setQueryData<Pages>(key, {
          ...data,
          pages: data.pages.map((p) => ({ ...p, items: p.items.map((c) => (c.id === contact.id ? contact : c)) })),
        });
      }
      for (const [key, detail] of qc.getQueriesData<ConversationDetail>({ queryKey: liveChatKey })) {
        if (detail && !Array.isArray(detail) && 'contactId' in detail && detail.contactId === contact.id) qc.setQueryData(key, { ...detail, Contact: contact });
      }
      void qc.invalidateQueries({ queryKey: contactListsKey(workspaceId) });
      void qc.invalidateQueries({ queryKey: conversationListsKey(workspaceId) });
    },
  });
}
