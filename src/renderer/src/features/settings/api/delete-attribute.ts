import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** DELETE /attribute/{attributeId} */
export function useDeleteAttribute(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (attributeId: string) => api('deleteAttribute', { params: { attributeId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.all(workspaceId) }),
  });
}
