import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** POST /attribute (409 when the name exists in the workspace). */
export function useCreateAttribute(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createAttribute'>) => api('createAttribute', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.all(workspaceId) }),
  });
}
