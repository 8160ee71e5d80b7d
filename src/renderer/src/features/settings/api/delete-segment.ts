import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** DELETE /segment/{segmentId} */
export function useDeleteSegment(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (segmentId: string) => api('deleteSegment', { params: { segmentId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.list(workspaceId, 'segments') }),
  });
}
