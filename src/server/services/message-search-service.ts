/**
 * Message search, scoped by workspace: every member of a workspace may open each of its conversations
 * (the role matrix gives agents all of live chat), so a member's access is the workspace; the route's access
 * check has already placed the caller there.
 */
import type { z } from 'zod';
import type { ConversationSearchQuery, MessageSearchQuery } from '../../shared/schemas/agent-tools';
import type { WorkspaceContext } from './caller';
import { pageLimit } from '../repositories/pagination';
import * as search from '../repositories/message-search';
import type { ServiceDeps } from './context';

export function messageSearchService(d: ServiceDeps) {
  const ex = () => d.db.db;
  return {
    async inConversation(ctx: WorkspaceContext, conversationId: string, q: z.output<typeof ConversationSearchQuery>) {
      const terms = search.searchTerms(q.q);
      return { matches: await search.conversationMatches(ex(), ctx.workspaceId, conversationId, terms), terms };
    },
    async inWorkspace(ctx: WorkspaceContext, q: z.output<typeof MessageSearchQuery>) {
      const terms = search.searchTerms(q.q);
      const page = await search.workspaceMatches(ex(), ctx.workspaceId, terms, { limit: pageLimit(q), cursor: q.cursor });
      return { ...page, terms };
    },
  };
}
