import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updateProfile } from '../../../lib/auth';

/** The display name lives with the identity service (firebase updateProfile). */
export function useUpdateDisplayName() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (displayName: string) => updateProfile({ displayName }),
    // Member listings join the identity's profile: refresh them.
    onSuccess: () => qc.invalidateQueries({ queryKey: ['workspace'] }),
  });
}
