import { useMutation } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-client';

/** POST /bot/{botId}/uploadMedia: a file for a media node; answers its mediaLink. */
export function useUploadBotMedia(botId: string) {
  return useMutation({ mutationFn: (file: File) => apiUpload('uploadBotMedia', { params: { botId }, file }) });
}
