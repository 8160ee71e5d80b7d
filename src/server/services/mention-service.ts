/** Mentions of the caller in notes: the mentions view, its unread count, and marking them seen. */
import type { z } from 'zod';
import type { MentionListQuery } from '../../shared/schemas/agent-tools';
import type { WorkspaceContext } from './caller';
import * as notes from '../repositories/notes';
import { pageLimit } from '../repositories/pagination';
import type { ServiceDeps } from './context';

export function mentionService(d: ServiceDeps) {
  const ex = () => d.db.db;
  return {
    list: (ctx: WorkspaceContext, q: z.output<typeof MentionListQuery>) =>
      notes.mentionsOf(ex(), ctx.workspaceId, ctx.caller.member.id, { unread: q.unread === 'true', limit: pageLimit(q), cursor: q.cursor }),
    async count(ctx: WorkspaceContext) {
      return { unread: await notes.unreadMentionCount(ex(), ctx.workspaceId, ctx.caller.member.id) };
    },
    async markRead(ctx: WorkspaceContext, conversationId: string) {
      await notes.markMentionsRead(ex(), ctx.workspaceId, ctx.caller.member.id, conversationId);
      return { success: true as const };
    },
  };
}
