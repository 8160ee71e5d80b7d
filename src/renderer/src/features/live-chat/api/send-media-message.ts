/**
 * POST /conversation/{id}/media then POST /message/media (additions): uploads the composer's file to the file
 * store and sends it through the outbound path; an audio file's text goes as its own message (WhatsApp sends
 * audio without a caption).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationDetail, Message } from '@shared/schemas/entities';
import { api, apiUpload } from '../../../lib/api-client';
import { mergeMessages } from '../utils/timeline';
import { liveChatKeys } from './keys';

export interface SendMediaInput {
  file: File;
  caption: string;
}

export function useSendMediaMessage(conversationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, caption }: SendMediaInput): Promise<Message[]> => {
      const uploaded = await apiUpload('uploadChatMedia', { params: { conversationId }, file });
      const text = caption.trim();
      const audio = uploaded.type === 'audio';
      const media = await api('sendMediaMessage', {
        body: { conversationId, mediaUrl: uploaded.mediaUrl, ...(text && !audio ? { caption: text } : {}) },
      });
      if (!audio || !text) return [media];
      return [media, await api('createMessage', { body: { conversationId, text } })];
    },
    onSuccess: (messages) => {
      qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(conversationId), (old) =>
        old ? { ...old, Message: mergeMessages(old.Message, messages) } : old,
      );
    },
  });
}
