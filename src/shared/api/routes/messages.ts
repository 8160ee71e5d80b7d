// Routes that send a message in a conversation: text and templates; an addition: interactive messages from the
// composer (reply buttons, list menus).
import { CreateInteractiveMessageBody } from '../../schemas/agent-tools';
import { Message } from '../../schemas/entities';
import { ContactTemplateMessageBody, CreateMessageBody, CreateTemplateMessageBody } from '../../schemas/requests';
import { agentIn, pathParams, route } from './define';

export const messageRoutes = {
  createMessage: route({
    method: 'POST', path: '/message', tag: 'message', summary: 'Send a text to the contact of a conversation',
    body: CreateMessageBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' },
  }),
  sendTemplateMessage: route({
    method: 'POST', path: '/message/template', tag: 'message',
    summary: 'Send an approved template to the contact of a conversation (allowed outside the 24-hour window)',
    body: CreateTemplateMessageBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' },
    addition: true,
  }),
  sendContactTemplateMessage: route({
    method: 'POST', path: '/contact/:contactId/template-message', tag: 'contact',
    summary: "Start a conversation: an approved template to a contact on the template's number (finds or opens the conversation)",
    params: pathParams.contact, body: ContactTemplateMessageBody, status: 201, response: Message, access: agentIn('contact', 'contactId'),
    addition: true,
  }),
} as const;

export const interactiveMessageRoutes = {
  sendInteractiveMessage: route({
    method: 'POST', path: '/message/interactive', tag: 'message',
    summary: "Send reply buttons (1-3) or a list menu (at most 10 rows) inside the 24-hour window, within WhatsApp's limits",
    body: CreateInteractiveMessageBody, status: 201, response: Message,
    access: { kind: 'resource', resource: 'conversation', in: 'body', field: 'conversationId', role: 'agent' }, addition: true,
  }),
} as const;
