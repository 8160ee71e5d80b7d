import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { audienceKeys } from './keys';

/** DELETE /contact/{contactId} (addition, admins): the contact and its conversations. */
export function useDeleteContact(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (contactId: string) => api('deleteContact', { params: { contactId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: audienceKeys.contacts(workspaceId) }),
  });
}
