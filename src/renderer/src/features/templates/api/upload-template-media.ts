import { useMutation } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-client';

/** POST /whatsapp-template/upload-media: a header sample; answers assetUrl and the FBhandle for the example. */
export function useUploadTemplateMedia() {
  return useMutation({
    mutationFn: (file: File) => apiUpload('uploadTemplateMedia', { file }),
  });
}
