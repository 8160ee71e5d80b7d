import type { ReactNode } from 'react';
import { Card, PageHeader } from '../ui/card';
import { QueryList, type QueryListProps } from '../ui/query-list';

/**
 * A screen that lists one kind of record: the page header (title, a line of context, actions such as "New …",
 * and an optional filter bar under them), then one card with the list's query states (see QueryList) and the
 * list itself.
 */
export function ListPage<T>({
  title,
  description,
  actions,
  filters,
  ...list
}: {
  title: string;
  description: ReactNode;
  actions?: ReactNode;
  filters?: ReactNode;
} & QueryListProps<T>) {
  return (
    <>
      <PageHeader title={title} description={description} actions={actions}>
        {filters}
      </PageHeader>
      <div className="p-6">
        <Card>
          <QueryList {...list} />
        </Card>
      </div>
    </>
  );
}
