// Routes of one conversation; an addition: presence (who views or types in it).
import { pageOf, Success } from '../../schemas/common';
import { Conversation, ConversationDetail, Message } from '../../schemas/entities';
import { PresenceBody } from '../../schemas/presence';
import { MessageListQuery, PatchConversationBody } from '../../schemas/requests';
import { agentIn, pathParams, route } from './define';

export const conversationRoutes = {
  getConversation: route({
    method: 'GET', path: '/conversation/:conversationId', tag: 'conversation', summary: 'A conversation with events, contact and messages',
    params: pathParams.conversation, status: 200, response: ConversationDetail, access: agentIn('conversation', 'conversationId'),
  }),
  listConversationMessages: route({
    method: 'GET', path: '/conversation/:conversationId/messages', tag: 'conversation',
    summary: 'Messages of a conversation, newest first; `before` (a message id) pages back beyond those the detail carries',
    params: pathParams.conversation, query: MessageListQuery, status: 200, response: pageOf(Message), access: agentIn('conversation', 'conversationId'),
    addition: true,
  }),
  markConversationRead: route({
    method: 'POST', path: '/conversation/:conversationId/read', tag: 'conversation',
    summary: "Mark the conversation read for the caller: it leaves the caller's unread counts until the customer writes again",
    params: pathParams.conversation, status: 200, response: Success, access: agentIn('conversation', 'conversationId'), addition: true,
  }),
  patchConversation: route({
    method: 'PATCH', path: '/conversation/:conversationId', tag: 'conversation', summary: 'Open, close or assign a conversation',
    params: pathParams.conversation, body: PatchConversationBody, status: 200, response: Conversation, access: agentIn('conversation', 'conversationId'),
  }),
} as const;

export const presenceRoutes = {
  setPresence: route({
    method: 'POST', path: '/conversation/:conversationId/presence', tag: 'conversation',
    summary: "Say the caller views, types in or left the conversation: members of the workspace see it on the event stream (`event: presence`, not stored); typing also shows WhatsApp's typing indicator to the customer (throttled)",
    params: pathParams.conversation, body: PresenceBody, status: 200, response: Success, access: agentIn('conversation', 'conversationId'), addition: true,
  }),
} as const;
