/** Wire-shaped entities for the live-chat and audience component tests. */
import type { ConversationEvent, ConversationListEntry, Contact, Message, WhatsappTemplate } from '../../../src/shared/schemas/entities';

export const ids = {
  workspace: '11111111-1111-4111-8111-111111111111',
  member: '22222222-2222-4222-8222-222222222222',
  other: '33333333-3333-4333-8333-333333333333',
  conversation: '44444444-4444-4444-8444-444444444444',
  contact: '55555555-5555-4555-8555-555555555555',
};

let n = 0;
export function message(over: Partial<Message> = {}): Message {
  n++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type: 'text',
    header: null,
    text: 'Hello',
    mediaUrl: null,
    footer: null,
    action: null,
    templateComponents: null,
    createdAt: '2026-11-23T09:00:00.000Z',
    creator: 'user',
    conversationId: ids.conversation,
    memberId: null,
    status: 'received',
    failureReason: null,
    ...over,
  };
}

export function contact(over: Partial<Contact> = {}): Contact {
  return {
    id: ids.contact,
    createdAt: '2026-11-01T09:00:00.000Z',
    workspaceId: ids.workspace,
    name: 'Grace Hopper',
    attributes: { plan: 'gold' },
    channel: 'WhatsApp',
    phoneNumber: '+14155550123',
    email: null,
    tags: [],
    country: 'US',
    city: null,
    meta_source_id: null,
    meta_source_type: null,
    meta_ctwa_clid: null,
    ...over,
  };
}

export function listEntry(over: Partial<ConversationListEntry> = {}): ConversationListEntry {
  return {
    id: ids.conversation,
    createdAt: '2026-11-20T09:00:00.000Z',
    isActive: true,
    channel: 'WhatsApp',
    contactId: ids.contact,
    workspaceId: ids.workspace,
    whatsappAccountId: null,
    assigneeMemberId: null,
    assigneeBotId: null,
    lastMessageAt: '2026-11-23T09:00:00.000Z',
    Contact: contact(),
    lastMessage: message(),
    ...over,
  };
}

export function event(over: Partial<ConversationEvent> & Pick<ConversationEvent, 'data'>): ConversationEvent {
  n++;
  return {
    id: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`,
    createdAt: '2026-11-23T09:00:00.000Z',
    conversationId: ids.conversation,
    type: over.data.type as ConversationEvent['type'],
    ...over,
  };
}

export function template(over: Partial<WhatsappTemplate> = {}): WhatsappTemplate {
  return {
    id: '66666666-6666-4666-8666-666666666666',
    name: 'order_update',
    status: 'APPROVED',
    createdAt: '2026-11-01T09:00:00.000Z',
    language: 'en_US',
    memberId: ids.member,
    whatsappTemplateId: 'wa-1',
    mediaUrl: null,
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, your order is {{2}}.' },
    ],
    workspaceId: ids.workspace,
    whatsappAccountId: '77777777-7777-4777-8777-777777777777',
    ...over,
  };
}
