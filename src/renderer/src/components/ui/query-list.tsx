import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmptyState } from './empty-state';
import { ListSkeleton } from './skeleton';

/**
 * The states every list screen shows for its query: a skeleton while it loads ("Loading <noun>"), the error
 * ("Could not load the <noun>"), `empty` when there is nothing to list, else the list itself.
 */
export interface QueryListProps<T> {
  query: UseQueryResult<T, Error>;
  noun: string;
  rows?: number;
  /** Shown instead of the list when `isEmpty` holds; without it an empty list renders as a list. */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

export function QueryList<T>({
  query,
  noun,
  rows = 3,
  empty,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  children,
}: QueryListProps<T>) {
  if (query.isPending) return <ListSkeleton rows={rows} label={`Loading ${noun}`} />;
  if (query.isError) return <EmptyState title={`Could not load the ${noun}`} description={query.error.message} />;
  if (empty !== undefined && isEmpty(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
