/** PATCH /contact/{contactId}: name, e-mail, country and attribute values. */
import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '../../../../../shared/schemas/entities';
import { type ApiBody, api } from '../../../lib/api-client';
import { audienceKeys } from './keys';

type Pages = InfiniteData<{ items: Contact[]; nextCursor: string | null }, string | undefined>;

export function usePatchContact(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, body }: { contactId: string; body: ApiBody<'patchContact'> }) =>
      api('patchContact', { params: { contactId }, body }),
    onSuccess: (contact) => {
      // Show the change at once in every loaded list, then let the lists re-check their filters.
      for (const [key, data] of qc.getQueriesData<Pages>({ queryKey: audienceKeys.contacts(workspaceId) })) {
        if (!data) continue;
        qc.setQueryData<Pages>(key, {
          ...data,
          pages: data.pages.map((p) => ({ ...p, items: p.items.map((c) => (c.id === contact.id ? contact : c)) })),
        });
      }
      void qc.invalidateQueries({ queryKey: audienceKeys.contacts(workspaceId) });
    },
  });
}
