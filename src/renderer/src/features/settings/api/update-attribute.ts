import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';
import { workspaceKeys } from '../../../lib/queries/session';

/** PATCH /attribute/{attributeId} */
export function useUpdateAttribute(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ attributeId, body }: { attributeId: string; body: ApiBody<'patchAttribute'> }) =>
      api('patchAttribute', { params: { attributeId }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKeys.all(workspaceId) }),
  });
}
