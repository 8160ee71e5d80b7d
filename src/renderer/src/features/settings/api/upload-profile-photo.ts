import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-client';
import { updateProfile } from '../../../lib/auth';

/** POST /member/profile-photo, then the identity's photoURL points at it. */
export function useUploadProfilePhoto() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const { photoUrl } = await apiUpload('uploadProfilePhoto', { file });
      await updateProfile({ photoURL: photoUrl });
      return photoUrl;
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['workspace'] }),
  });
}
