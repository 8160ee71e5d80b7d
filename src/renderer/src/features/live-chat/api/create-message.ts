/** POST /message: sends a text to the contact of a conversation. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationDetail } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { mergeMessages } from '../utils/timeline';
import { liveChatKeys } from './keys';

export function useCreateMessage(conversationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api('createMessage', { body: { text, conversationId } }),
    onSuccess: (message) => {
      qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(conversationId), (old) =>
        old ? { ...old, Message: mergeMessages(old.Message, [message]) } : old,
      );
    },
  });
}
