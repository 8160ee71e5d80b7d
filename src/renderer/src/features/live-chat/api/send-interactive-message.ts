/**
 * POST /message/interactive (addition): reply buttons or a list menu to the customer, inside the 24-hour window;
 * the sent message joins the open conversation at once.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateInteractiveMessageBody } from '@shared/schemas/agent-tools';
import type { ConversationDetail } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { mergeMessages } from '../utils/timeline';
import { liveChatKeys } from './keys';

export function useSendInteractiveMessage(conversationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInteractiveMessageBody) => api('sendInteractiveMessage', { body }),
    onSuccess: (message) => {
      qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(conversationId), (old) =>
        old ? { ...old, Message: mergeMessages(old.Message, [message]) } : old,
      );
    },
  });
}
