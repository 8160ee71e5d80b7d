/**
 * Live chat (product spec section 2): /live-chat (tab me | assigned | open | closed, default closed) and
 * /live-chat/{conversationId} with the contact sidebar. The router wires these components and loaders.
 */
import type { QueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { createElement } from 'react';
import { conversationCountsQueryOptions } from './api/count-conversations';
import { conversationQueryOptions } from './api/get-conversation';
import { conversationsQueryOptions } from './api/list-conversations';
import { LiveChatLayout } from './components/live-chat-layout';
import { parseTab } from './utils/tabs';

export { conversationsQueryOptions, conversationQueryOptions, conversationCountsQueryOptions };

export function LiveChatPage() {
  return createElement(LiveChatLayout, {});
}

export function ConversationPage() {
  const { conversationId } = useParams({ strict: false }) as { conversationId?: string };
  return createElement(LiveChatLayout, { conversationId });
}

interface LoaderArgs {
  queryClient: QueryClient;
  workspaceId: string;
  params: Record<string, string>;
  search: Record<string, unknown>;
}

/**
 * /live-chat: starts loading the tab's first page and the counts. Not awaited on purpose: the screen renders at
 * once with its own skeleton, so the router never holds the previous screen behind its pending state (which,
 * once shown, stays for at least pendingMinMs) while the data is on its way.
 */
export function liveChatLoader({ queryClient, workspaceId, search }: LoaderArgs): Promise<void> {
  void queryClient.prefetchQuery(conversationCountsQueryOptions(workspaceId));
  void queryClient.prefetchInfiniteQuery(conversationsQueryOptions(workspaceId, parseTab(search.tab)));
  return Promise.resolve();
}

/** /live-chat/{id}: starts loading the conversation (and the list beside it), not awaited, as above. */
export function conversationLoader({ queryClient, workspaceId, params, search }: LoaderArgs): Promise<void> {
  void queryClient.prefetchQuery(conversationQueryOptions(params.conversationId));
  void queryClient.prefetchQuery(conversationCountsQueryOptions(workspaceId));
  void queryClient.prefetchInfiniteQuery(conversationsQueryOptions(workspaceId, parseTab(search.tab)));
  return Promise.resolve();
}

// The unread total for the shell (navigation badge, title count, sound).
export { useUnreadBeacon } from './hooks/use-unread-beacon';

// The workspace message search, opened by the quick switcher too.
export { openMessageSearch } from './hooks/use-live-chat-ui';
