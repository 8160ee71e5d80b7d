/**
 * Contacts by hand: add one (phone number read in the workspace's country, stored E.164,
 * unique per workspace), delete one (its conversations and messages go with it), and the exact count of the
 * list's current filter, so the audience screen shows the total rather than "100+".
 */
import type { z } from 'zod';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { Contact } from '../../shared';
import type { CreateContactBody } from '../../shared/schemas/requests';
import { badRequest, conflict, notFound } from '../errors';
import * as r from '../repositories/resources';
import { countContacts } from '../repositories/contact-list';
import { defaultCountryOf } from '../repositories/workspaces';
import type { WorkspaceContext } from './caller';
import { appendEvent } from '../repositories/event-log';
import { type ContactFilter, contactConditions } from '../repositories/contact-filter';
import type { ServiceDeps } from './context';
import { isUniqueViolation } from '../db/client';

export function contactService(d: ServiceDeps) {
  const ex = () => d.db.db;
  return {
    async create(ctx: WorkspaceContext, body: z.output<typeof CreateContactBody>): Promise<Contact> {
      const country = (await defaultCountryOf(ex(), ctx.workspaceId)) as CountryCode;
      const parsed = parsePhoneNumberFromString(body.phoneNumber, country);
      if (!parsed?.isValid()) throw badRequest('Enter a valid phone number');
      try {
        return await d.db.transaction(async (tx) => {
          const row = await r.contacts.insert(tx, {
            workspaceId: ctx.workspaceId,
            phoneNumber: parsed.number,
            name: body.name || null,
            email: body.email || null,
            country: parsed.country ?? null,
          });
          const contact = r.toContact(row);
          await appendEvent(tx, ctx.workspaceId, 'contact.created', { contact });
          return contact;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`A contact with the phone number ${parsed.number} exists already`);
        throw err;
      }
    },

    /** The delete and its `contact.deleted` event commit together: no client hears of a delete that failed. */
    async remove(ctx: WorkspaceContext, id: string): Promise<{ success: true }> {
      await d.db.transaction(async (tx) => {
        if (!(await r.contacts.remove(tx, ctx.workspaceId, id))) throw notFound('Contact not found');
        await appendEvent(tx, ctx.workspaceId, 'contact.deleted', { contactId: id });
      });
      return { success: true };
    },

    async count(ctx: WorkspaceContext, filter: ContactFilter): Promise<{ count: number }> {
      const { segmentCond, searchCond } = await contactConditions(ex(), ctx.workspaceId, filter);
      return { count: await countContacts(ex(), ctx.workspaceId, segmentCond, searchCond) };
    },
  };
}
