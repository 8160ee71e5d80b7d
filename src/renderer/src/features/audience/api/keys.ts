import type { ContactSort } from '@shared/schemas/requests';
import { contactListsKey } from '../../../lib/queries/contact-keys';

/** The contacts table's order: today's, newest first, unless a column header chose another. */
export interface ContactOrder {
  sort: ContactSort;
  order: 'asc' | 'desc';
}
export const NEWEST_FIRST: ContactOrder = { sort: 'createdAt', order: 'desc' };

/** Query keys of the audience screens. */
export const audienceKeys = {
  contacts: contactListsKey,
  contactList: (workspaceId: string, search: string, segmentId: string | null, optedOut: boolean | null = null, order: ContactOrder = NEWEST_FIRST) =>
    ['audience', 'contacts', workspaceId, search, segmentId, optedOut, `${order.sort}.${order.order}`] as const,
  imports: (workspaceId: string) => ['audience', 'imports', workspaceId] as const,
};
