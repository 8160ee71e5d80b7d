import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** GET /workspace/{id}/rate-card (addition): the rate card an admin uploaded, or null. */
export const rateCardQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.list(workspaceId, 'rate-card'),
    queryFn: ({ signal }) => api('getRateCard', { params: { workspaceId }, signal }),
  });

export function useRateCard(workspaceId: string) {
  return useQuery(rateCardQueryOptions(workspaceId));
}

/** POST /workspace/{id}/rate-card (addition, admin): replaces the rate card with a CSV file's text. */
export function useUploadRateCard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'uploadRateCard'>) => api('uploadRateCard', { params: { workspaceId }, body }),
    onSuccess: (rateCard) => qc.setQueryData(rateCardQueryOptions(workspaceId).queryKey, { rateCard }),
  });
}
