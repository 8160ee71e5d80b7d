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
export { liveChatSearchSchema } from './utils/tabs';

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

/** /live-chat: the tab's first page and the counts, fetched before the screen renders. */
export async function liveChatLoader({ queryClient, workspaceId, search }: LoaderArgs) {
  void queryClient.prefetchQuery(conversationCountsQueryOptions(workspaceId));
  await queryClient.ensureInfiniteQueryData(conversationsQueryOptions(workspaceId, parseTab(search.tab)));
}

/** /live-chat/{id}: the conversation (the list of its tab loads alongside, without holding the screen). */
export async function conversationLoader({ queryClient, workspaceId, params, search }: LoaderArgs) {
  void queryClient.prefetchQuery(conversationCountsQueryOptions(workspaceId));
  void queryClient.prefetchInfiniteQuery(conversationsQueryOptions(workspaceId, parseTab(search.tab)));
  await queryClient.ensureQueryData(conversationQueryOptions(params.conversationId));
}
