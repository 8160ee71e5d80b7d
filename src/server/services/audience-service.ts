/** Attributes, contacts and segments. */
import { type SQL, and, desc, eq, sql } from 'drizzle-orm';
import { afterCursor, pageLimit, toPage } from '../repositories/pagination';
import type { z } from 'zod';
import type { Attribute, Contact, Segment, SegmentPreview } from '../../shared';
import type {
  ContactListQuery,
  CreateAttributeBody,
  CreateSegmentBody,
  SegmentPreviewBody,
  PatchAttributeBody,
  PatchContactBody,
} from '../../shared/schemas/requests';
import * as t from '../db/schema';
import { type Executor, rowsOf } from '../db/client';
import { badRequest, conflict, notFound } from '../errors';
import * as r from '../repositories/resources';
import type { WorkspaceContext } from '../http/types';
import { isUniqueViolation, type ServiceDeps } from './context';
import { appendEvent } from '../realtime/event-log';

import { attributeIndex, countSegment, segmentWhere, validateFilters } from '../segments';
import type { SegmentFilter } from '../../shared/schemas/entities';

/** The contact's own columns a segment filter may name, besides the workspace's attributes. */
export { contactColumns } from '../segments';

export { nameWordsOf, phoneDigits, searchCondition } from '../repositories/contact-search';
import { phoneDigits, searchCondition } from '../repositories/contact-search';

type AttrValue = string | number | boolean | null;

/** Checks a value against an attribute's format, accepting the obvious text forms ("42", "true"). */
export function coerceAttributeValue(format: 'text' | 'number' | 'boolean', name: string, value: AttrValue): AttrValue {
  if (value === null) return null;
  switch (format) {
    case 'text':
      if (typeof value === 'string') return value;
      return String(value);
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) throw badRequest(`Attribute ${name} must be a number`);
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw badRequest(`Attribute ${name} must be true or false`);
  }
}

/** A page of contacts, newest first, limited by a segment and/or a search (see searchCondition). */
export async function contactsPage(
  ex: Executor,
  workspaceId: string,
  query: { search?: string; cursor?: string; limit?: number },
  segmentCond: SQL | undefined,
  searchCond: SQL | undefined,
) {
  if (query.search && phoneDigits(query.search) >= 5) {
    // Phone numbers follow the order contacts were imported in, so "newest first, skipping non-matches"
    // can walk most of the table before it finds a page. A sort key no index provides makes the planner
    // collect the (few) matches through the phone prefix index and sort them instead.
    const limit = pageLimit(query);
    const c = t.contacts;
    const rows = await ex
      .select()
      .from(c)
      .where(and(eq(c.workspaceId, workspaceId), segmentCond, searchCond, afterCursor(c.createdAt, c.id, query.cursor)))
      .orderBy(sql`${c.createdAt} + interval '0 seconds' desc`, desc(c.id))
      .limit(limit + 1);
    return toPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }), r.toContact);
  }
  const page = await r.contacts.page(ex, workspaceId, query, and(segmentCond, searchCond));
  return { items: page.items.map(r.toContact), nextCursor: page.nextCursor };
}

export interface AttributeUser {
  type: 'segment' | 'bot' | 'campaign';
  id: string;
  name: string;
}

/** Segments filtering on the attribute (by name), bots and campaigns whose canvas names it (by id). */
export async function attributeUsers(ex: Executor, workspaceId: string, attributeId: string, name: string): Promise<AttributeUser[]> {
  const idPattern = `%"${attributeId}"%`;
  const rows = rowsOf<AttributeUser>(
    await ex.execute(sql`
      select 'segment' as type, id::text as id, name from ${t.segments}
      where workspace_id = ${workspaceId}
        and exists (select 1 from jsonb_array_elements(filters) f where lower(f ->> 'column') = lower(${name}::text))
      union all
      select 'bot', id::text, title from ${t.bots} where workspace_id = ${workspaceId} and rf_instance::text like ${idPattern}
      union all
      select 'campaign', id::text, name from ${t.campaigns} where workspace_id = ${workspaceId} and rf_instance::text like ${idPattern}
      order by 1, 3`),
  );
  return rows;
}

export function audienceService(d: ServiceDeps) {
  const ex = () => d.db.db;
  const duplicate = (name: string) => conflict(`Attribute with name ${name} already exists`);

  async function attributesByName(workspaceId: string) {
    const rows = await ex().select().from(t.attributes).where(eq(t.attributes.workspaceId, workspaceId));
    return new Map(rows.map((a) => [a.name.toLowerCase(), a]));
  }

  return {
    async createAttribute(ctx: WorkspaceContext, body: z.output<typeof CreateAttributeBody>): Promise<Attribute> {
      try {
        const row = await r.attributes.insert(ex(), {
          workspaceId: ctx.workspaceId,
          name: body.name,
          description: body.description ?? null,
          type: body.type,
          format: body.format,
          memberId: ctx.caller.member.id,
        });
        return r.toAttribute(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(body.name);
        throw err;
      }
    },
    async patchAttribute(ctx: WorkspaceContext, id: string, body: z.output<typeof PatchAttributeBody>): Promise<Attribute> {
      const before = await r.attributes.get(ex(), ctx.workspaceId, id);
      if (!before) throw notFound('Attribute not found');
      try {
        return await d.db.transaction(async (tx) => {
          const row = await r.attributes.update(tx, ctx.workspaceId, id, {
            ...(body.name !== undefined && { name: body.name }),
            ...(body.description !== undefined && { description: body.description }),
            ...(body.type !== undefined && { type: body.type }),
            ...(body.format !== undefined && { format: body.format }),
          });
          // Contacts keep attribute values by name: a rename carries the values over.
          if (row && body.name !== undefined && body.name !== before.name) {
            await tx.execute(sql`
              update ${t.contacts}
              set attributes = (attributes - ${before.name}::text) || jsonb_build_object(${body.name}::text, attributes -> ${before.name}::text)
              where workspace_id = ${ctx.workspaceId} and attributes ? ${before.name}::text`);
          }
          return r.toAttribute(row!);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(body.name ?? before.name);
        throw err;
      }
    },
    async deleteAttribute(ctx: WorkspaceContext, id: string) {
      await d.db.transaction(async (tx) => {
        const row = await r.attributes.get(tx, ctx.workspaceId, id);
        if (!row) throw notFound('Attribute not found');
        // Deleting an attribute that segments, bots or campaigns still use would silently change what they do.
        const users = await attributeUsers(tx, ctx.workspaceId, row.id, row.name);
        if (users.length) {
          const named = users.map((u) => `${u.type} "${u.name}"`).join(', ');
          throw conflict(`Attribute ${row.name} is used by ${named}; remove it from them first`);
        }
        await r.attributes.remove(tx, ctx.workspaceId, id);
        await tx.execute(sql`
          update ${t.contacts} set attributes = attributes - ${row.name}::text
          where workspace_id = ${ctx.workspaceId} and attributes ? ${row.name}::text`);
      });
      return { success: true as const };
    },

    /** Attribute values are checked against the workspace's attributes; null removes a value. */
    async patchContact(ctx: WorkspaceContext, id: string, body: z.output<typeof PatchContactBody>): Promise<Contact> {
      const current = await r.contacts.get(ex(), ctx.workspaceId, id);
      if (!current) throw notFound('Contact not found');
      let attributes = current.attributes;
      if (body.attributes) {
        const known = await attributesByName(ctx.workspaceId);
        const next = { ...current.attributes };
        for (const [key, value] of Object.entries(body.attributes)) {
          const attr = known.get(key.toLowerCase());
          if (!attr) throw badRequest(`Unknown attribute: ${key}`);
          const v = coerceAttributeValue(attr.format, attr.name, value);
          if (v === null) delete next[attr.name];
          else next[attr.name] = v;
        }
        attributes = next;
      }
      return d.db.transaction(async (tx) => {
        const row = await r.contacts.update(tx, ctx.workspaceId, id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.email !== undefined && { email: body.email }),
          ...(body.country !== undefined && { country: body.country }),
          attributes,
          updatedAt: new Date(),
        });
        const contact = r.toContact(row!);
        await appendEvent(tx, ctx.workspaceId, 'contact.updated', { contact });
        return contact;
      });
    },

    /** A page of contacts, newest first: searched, and/or limited to a saved segment. */
    async listContacts(ctx: WorkspaceContext, query: z.output<typeof ContactListQuery>) {
      let segmentCond: SQL | undefined;
      if (query.segmentId) {
        const segment = await r.segments.get(ex(), ctx.workspaceId, query.segmentId);
        if (!segment) throw notFound('Segment not found');
        segmentCond = await segmentWhere(ex(), ctx.workspaceId, segment.filters as SegmentFilter[]);
      }
      let searchCond: SQL | undefined;
      if (query.search?.trim()) {
        const [ws] = await ex().select({ c: t.workspaces.defaultCountry }).from(t.workspaces).where(eq(t.workspaces.id, ctx.workspaceId));
        searchCond = searchCondition(query.search, ws?.c ?? 'US');
      }
      return contactsPage(ex(), ctx.workspaceId, query, segmentCond, searchCond);
    },

    /** What unsaved filters select: the count and the first page (newest first). */
    async previewSegment(ctx: WorkspaceContext, body: z.output<typeof SegmentPreviewBody>): Promise<SegmentPreview> {
      const attrs = await attributeIndex(ex(), ctx.workspaceId);
      validateFilters(body.filters, attrs);
      const where = await segmentWhere(ex(), ctx.workspaceId, body.filters, attrs);
      const [total, page] = await Promise.all([
        countSegment(ex(), ctx.workspaceId, body.filters, attrs),
        r.contacts.page(ex(), ctx.workspaceId, { limit: body.limit }, where),
      ]);
      return { count: total, items: page.items.map(r.toContact) };
    },

    async createSegment(ctx: WorkspaceContext, body: z.output<typeof CreateSegmentBody>): Promise<Segment> {
      validateFilters(body.filters, await attributeIndex(ex(), ctx.workspaceId));
      const row = await r.segments.insert(ex(), {
        workspaceId: ctx.workspaceId,
        name: body.name,
        filters: body.filters,
        memberId: ctx.caller.member.id,
      });
      return r.toSegment(row);
    },
    async deleteSegment(ctx: WorkspaceContext, id: string) {
      if (!(await r.segments.remove(ex(), ctx.workspaceId, id))) throw notFound('Segment not found');
      return { success: true as const };
    },

    async contactExists(ctx: WorkspaceContext, id: string) {
      const [c] = await ex()
        .select({ id: t.contacts.id })
        .from(t.contacts)
        .where(and(eq(t.contacts.workspaceId, ctx.workspaceId), eq(t.contacts.id, id)))
        .limit(1);
      return !!c;
    },
  };
}
