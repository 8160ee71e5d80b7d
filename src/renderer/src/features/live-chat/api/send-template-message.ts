/** POST /message/template (addition): sends an approved template into a conversation, outside the 24-hour window too. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationDetail } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { mergeMessages } from '../utils/timeline';
import { liveChatKeys } from './keys';

export interface SendTemplateInput {
  templateId: string;
  /** Values of the body's variables, in order of appearance. */
  body: string[];
  /** The value of a text header's variable. */
  headerText?: string;
}

export function useSendTemplateMessage(conversationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ templateId, body, headerText }: SendTemplateInput) =>
      api('sendTemplateMessage', { body: { conversationId, templateId, parameters: { body, ...(headerText ? { headerText } : {}) } } }),
    onSuccess: (message) => {
      qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(conversationId), (old) =>
        old ? { ...old, Message: mergeMessages(old.Message, [message]) } : old,
      );
    },
  });
}
