/**
 * Canned replies: workspace replies every member uses and admins manage, and personal replies only
 * their member sees and manages. Someone else's personal reply answers 404, as a reply of another workspace does.
 */
import type { z } from 'zod';
import { CannedReplyShortcut, type CannedReplyListQuery, type CreateCannedReplyBody, type PatchCannedReplyBody } from '../../shared/schemas/agent-tools';
import { productMessages } from '../../shared/messages';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type { WorkspaceContext } from './caller';
import * as cr from '../repositories/canned-replies';
import { isUuid, pageLimit } from '../repositories/pagination';
import type { ServiceDeps } from './context';
import { isUniqueViolation } from '../db/client';

const taken = (shortcut: string) => conflict(`A canned reply with the shortcut /${shortcut} already exists`);

function encodeCursor(row: cr.CannedReplyRow) {
  return Buffer.from(JSON.stringify([row.shortcut, row.id])).toString('base64url');
}
function decodeCursor(cursor: string): { shortcut: string; id: string } {
  try {
    const [shortcut, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    // The cursor names a stored reply: a well-formed shortcut and a reply id, nothing else.
    if (!CannedReplyShortcut.safeParse(shortcut).success || typeof id !== 'string' || !isUuid(id)) throw new Error('bad');
    if (typeof shortcut !== 'string') throw new Error('bad');
    return { shortcut, id };
  } catch {
    throw badRequest('Invalid cursor');
  }
}

export function cannedReplyService(d: ServiceDeps) {
  const ex = () => d.db.db;

  /** The reply if the caller may change it: workspace replies by admins, personal ones by their member. */
  async function editable(ctx: WorkspaceContext, id: string) {
    const row = await cr.get(ex(), ctx.workspaceId, id);
    if (!row || (row.ownerMemberId && row.ownerMemberId !== ctx.caller.member.id)) throw notFound('Canned reply not found');
    if (!row.ownerMemberId && ctx.role !== 'admin') throw forbidden(productMessages.adminOnly);
    return row;
  }

  return {
    async list(ctx: WorkspaceContext, q: z.output<typeof CannedReplyListQuery>) {
      const limit = pageLimit(q);
      const rows = await cr.visibleTo(ex(), ctx.workspaceId, ctx.caller.member.id, {
        search: q.search,
        scope: q.scope,
        limit: limit + 1,
        after: q.cursor ? decodeCursor(q.cursor) : undefined,
      });
      const items = rows.slice(0, limit);
      return { items: items.map(cr.toCannedReply), nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
    },

    async create(ctx: WorkspaceContext, body: z.output<typeof CreateCannedReplyBody>) {
      if (body.scope === 'workspace' && ctx.role !== 'admin') throw forbidden(productMessages.adminOnly);
      try {
        const row = await cr.insert(ex(), {
          workspaceId: ctx.workspaceId,
          ownerMemberId: body.scope === 'personal' ? ctx.caller.member.id : null,
          createdByMemberId: ctx.caller.member.id,
          shortcut: body.shortcut,
          text: body.text,
        });
        return cr.toCannedReply(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(body.shortcut);
        throw err;
      }
    },

    async patch(ctx: WorkspaceContext, id: string, body: z.output<typeof PatchCannedReplyBody>) {
      await editable(ctx, id);
      try {
        const row = await cr.update(ex(), ctx.workspaceId, id, body);
        if (!row) throw notFound('Canned reply not found');
        return cr.toCannedReply(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(body.shortcut ?? '');
        throw err;
      }
    },

    async remove(ctx: WorkspaceContext, id: string) {
      await editable(ctx, id);
      await cr.remove(ex(), ctx.workspaceId, id);
      return { success: true as const };
    },
  };
}
