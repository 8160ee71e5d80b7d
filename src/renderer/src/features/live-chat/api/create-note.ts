/** POST /message/note (addition): an internal note, never sent to WhatsApp; mentioned members are told. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationDetail } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { mergeMessages } from '../utils/timeline';
import { liveChatKeys } from './keys';

export function useCreateNote(conversationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ text, mentionedMemberIds }: { text: string; mentionedMemberIds: string[] }) =>
      api('createNote', { body: { conversationId, text, mentionedMemberIds } }),
    onSuccess: (message) => {
      qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(conversationId), (old) =>
        old ? { ...old, Message: mergeMessages(old.Message, [message]) } : old,
      );
    },
  });
}
