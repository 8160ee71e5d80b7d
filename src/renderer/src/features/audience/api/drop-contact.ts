/** A contact deleted elsewhere (event `contact.deleted`): it leaves every loaded contact list at once. */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Contact } from '@shared/schemas/entities';
import { audienceKeys } from './keys';

type ContactPages = InfiniteData<{ items: Contact[]; nextCursor: string | null }>;

export function dropContact(qc: QueryClient, workspaceId: string, contactId: string): void {
  for (const [key, data] of qc.getQueriesData<ContactPages | { count: number }>({ queryKey: audienceKeys.contacts(workspaceId) })) {
    if (!data || !('pages' in data) || !data.pages.some((p) => p.items.some((c) => c.id === contactId))) continue;
    qc.setQueryData<ContactPages>(key, { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.filter((c) => c.id !== contactId) })) });
  }
  // The exact totals (GET .../contacts/count) include it until asked again.
  void qc.invalidateQueries({ queryKey: audienceKeys.contacts(workspaceId), predicate: (q) => q.queryKey.at(-1) === 'count' });
}
