import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type ApiBody, api } from '../../../lib/api-client';
import { audienceKeys } from './keys';

/** POST /contact (addition): a contact added by hand; 409 when the number exists in the workspace. */
export function useCreateContact(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'createContact'>) => api('createContact', { body }),
    onSuccess: (contact) => {
      toast.success(`${contact.name || contact.phoneNumber} added`);
      return qc.invalidateQueries({ queryKey: audienceKeys.contacts(workspaceId) });
    },
  });
}
