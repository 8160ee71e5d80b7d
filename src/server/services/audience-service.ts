/** Attributes, contacts and segments. */
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
import { badRequest, conflict, notFound } from '../errors';
import * as r from '../repositories/resources';
import * as attributeRepo from '../repositories/attributes';
import { contactsPage } from '../repositories/contact-list';
import { contactConditions } from '../repositories/contact-filter';
import type { WorkspaceContext } from './caller';
import type { ServiceDeps } from './context';
import { isUniqueViolation } from '../db/client';
import { appendEvent } from '../repositories/event-log';

import { attributeIndex, countSegment, segmentWhere } from '../repositories/segment-contacts';
import { validateFilters } from '../repositories/segment-filters';
import { type PageRequest, mapPage } from '../repositories/pagination';

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

export function audienceService(d: ServiceDeps) {
  const ex = () => d.db.db;
  const duplicate = (name: string) => conflict(`Attribute with name ${name} already exists`);

  async function attributesByName(workspaceId: string) {
    const rows = await attributeRepo.attributesOf(ex(), workspaceId);
    return new Map(rows.map((a) => [a.name.toLowerCase(), a]));
  }

  return {
    listAttributes: async (ctx: WorkspaceContext, query: PageRequest) => mapPage(await r.attributes.page(ex(), ctx.workspaceId, query), r.toAttribute),
    listSegments: async (ctx: WorkspaceContext, query: PageRequest) => mapPage(await r.segments.page(ex(), ctx.workspaceId, query), r.toSegment),
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
            await attributeRepo.renameAttributeValues(tx, ctx.workspaceId, before.name, body.name);
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
        const users = await attributeRepo.attributeUsers(tx, ctx.workspaceId, row.id, row.name);
        if (users.length) {
          const named = users.map((u) => `${u.type} "${u.name}"`).join(', ');
          throw conflict(`Attribute ${row.name} is used by ${named}; remove it from them first`);
        }
        await r.attributes.remove(tx, ctx.workspaceId, id);
        await attributeRepo.removeAttributeValues(tx, ctx.workspaceId, row.name);
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

    /** A page of contacts, newest first or sorted: searched, and/or limited to a saved segment. */
    async listContacts(ctx: WorkspaceContext, query: z.output<typeof ContactListQuery>) {
      const { segmentCond, searchCond } = await contactConditions(ex(), ctx.workspaceId, query);
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
  };
}
