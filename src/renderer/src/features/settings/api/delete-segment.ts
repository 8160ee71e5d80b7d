import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { segmentsQueryOptions } from '../../../lib/queries/segments';

/** DELETE /segment/{segmentId} */
export function useDeleteSegment(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (segmentId: string) => api('deleteSegment', { params: { segmentId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: segmentsQueryOptions(workspaceId).queryKey }),
  });
}
