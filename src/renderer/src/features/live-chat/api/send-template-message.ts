/**
 * Sends an approved template into a conversation (outside the 24-hour window). The channel helper (H2) adds
 * the route; until it is in the route table this answers what the server would: not available yet.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { liveChatKeys } from './keys';

export interface SendTemplateInput {
  templateId: string;
  /** Values of the header's variables, in order. */
  header: string[];
  /** Values of the body's variables, in order. */
  body: string[];
}

export function useSendTemplateMessage(conversationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (_input: SendTemplateInput) => {
      throw new ApiError(501, 'Sending templates is not available on this server yet', null);
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: liveChatKeys.conversation(conversationId) });
    },
  });
}
