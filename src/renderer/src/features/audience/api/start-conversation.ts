/**
 * Starting a conversation from the audience screen: the workspace's numbers, their APPROVED
 * templates, and POST /contact/{contactId}/template-message (addition), which finds or opens the conversation.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ApiBody, api } from '../../../lib/api-client';

export function useWhatsappNumbers(workspaceId: string) {
  return useQuery({
    queryKey: ['audience', workspaceId, 'whatsapp-numbers'],
    queryFn: () => api('listWhatsappAccounts', { params: { workspaceId }, query: { limit: 100 } }).then((p) => p.items),
  });
}

export function useApprovedTemplates(workspaceId: string) {
  return useQuery({
    queryKey: ['audience', workspaceId, 'whatsapp-templates'],
    queryFn: () => api('listWhatsappTemplates', { params: { workspaceId }, query: { limit: 100 } }).then((p) => p.items.filter((t) => t.status === 'APPROVED')),
  });
}

export function useStartConversation() {
  return useMutation({
    mutationFn: ({ contactId, body }: { contactId: string; body: ApiBody<'sendContactTemplateMessage'> }) =>
      api('sendContactTemplateMessage', { params: { contactId }, body }),
  });
}
