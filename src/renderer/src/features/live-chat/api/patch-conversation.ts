/** PATCH /conversation/{conversationId}: close, reopen, assign to a member or a bot. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationDetail } from '@shared/schemas/entities';
import { type ApiBody, api } from '../../../lib/api-client';
import { liveChatKeys } from './keys';

export function usePatchConversation(conversationId: string, workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'patchConversation'>) => api('patchConversation', { params: { conversationId }, body }),
    onSuccess: (conversation) => {
      qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(conversationId), (old) =>
        old ? { ...old, ...conversation } : old,
      );
      // The change records an event (assigned, closed) and moves the conversation between tabs.
      void qc.invalidateQueries({ queryKey: liveChatKeys.conversation(conversationId) });
      void qc.invalidateQueries({ queryKey: liveChatKeys.conversations(workspaceId) });
      void qc.invalidateQueries({ queryKey: liveChatKeys.counts(workspaceId) });
    },
  });
}
