/** Audience (product spec section 2): /audience loads contacts and attributes. */
import type { QueryClient } from '@tanstack/react-query';
import { contactsQueryOptions } from './api/list-contacts';
import { segmentsQueryOptions } from '../../lib/queries/segments';

export { AudiencePage } from './components/audience-page';
export { contactsQueryOptions };

/** /audience: the first page of contacts and the segments, fetched before the screen renders. */
export async function audienceLoader({ queryClient, workspaceId }: { queryClient: QueryClient; workspaceId: string }) {
  void queryClient.prefetchQuery(segmentsQueryOptions(workspaceId));
  await queryClient.ensureInfiniteQueryData(contactsQueryOptions(workspaceId));
}
