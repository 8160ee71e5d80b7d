/** PATCH /contact/{contactId} from the conversation's sidebar (name, e-mail, attribute values). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationDetail } from '../../../../../shared/schemas/entities';
import { type ApiBody, api } from '../../../lib/api-client';
import { liveChatKeys } from './keys';

export function usePatchContact(contactId: string, conversationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'patchContact'>) => api('patchContact', { params: { contactId }, body }),
    onSuccess: (contact) => {
      qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(conversationId), (old) =>
        old ? { ...old, Contact: contact } : old,
      );
      void qc.invalidateQueries({ queryKey: ['live-chat', 'conversations'] });
    },
  });
}
