// Routes of one contact.
import { pageOf } from '../../schemas/common';
import { Contact, ConversationListEntry } from '../../schemas/entities';
import { ListQuery, PatchContactBody } from '../../schemas/requests';
import { agentIn, pathParams, route } from './define';

export const contactRoutes = {
  listContactConversations: route({
    method: 'GET', path: '/contact/:contactId/conversations', tag: 'contact', summary: "A contact's conversations with their last message",
    params: pathParams.contact, query: ListQuery, status: 200, response: pageOf(ConversationListEntry), access: agentIn('contact', 'contactId'),
  }),
  patchContact: route({
    method: 'PATCH', path: '/contact/:contactId', tag: 'contact', summary: 'Update name, e-mail, country or attributes',
    params: pathParams.contact, body: PatchContactBody, status: 200, response: Contact, access: agentIn('contact', 'contactId'),
  }),
} as const;
