/** Query keys of live chat, in one place so the event stream updates exactly what the screens read. */
import { conversationListsKey, liveChatKey } from '../../../lib/queries/contact-keys';
import type { LiveChatTab } from '../utils/tabs';

export const liveChatKeys = {
  all: liveChatKey,
  conversations: conversationListsKey,
  conversationList: (workspaceId: string, tab: LiveChatTab, search: string) =>
    ['live-chat', 'conversations', workspaceId, tab, search] as const,
  /** The "longest waiting" order: outside `conversations`, so the event stream refetches it instead of placing rows. */
  waitingList: (workspaceId: string, tab: LiveChatTab, search: string) => ['live-chat', 'waiting', workspaceId, tab, search] as const,
  waiting: (workspaceId: string) => ['live-chat', 'waiting', workspaceId] as const,
  counts: (workspaceId: string) => ['live-chat', 'counts', workspaceId] as const,
  conversation: (conversationId: string) => ['live-chat', 'conversation', conversationId] as const,
  olderMessages: (conversationId: string) => ['live-chat', 'conversation', conversationId, 'older'] as const,
  contactConversations: (contactId: string) => ['live-chat', 'contact-conversations', contactId] as const,
  workspace: (workspaceId: string) => ['live-chat', 'workspace', workspaceId] as const,
};
