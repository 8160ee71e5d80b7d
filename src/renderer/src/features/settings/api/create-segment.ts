import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { segmentsQueryOptions } from '../../../lib/queries/segments';

/** POST /segment */
export function useCreateSegment(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createSegment'>) => api('createSegment', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: segmentsQueryOptions(workspaceId).queryKey }),
  });
}
