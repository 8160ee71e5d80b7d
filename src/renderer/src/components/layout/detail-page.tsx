import type { UseQueryResult } from '@tanstack/react-query';
import { Link, type LinkProps } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { Card, PageHeader } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { ListSkeleton } from '../ui/skeleton';

/** The title of a screen below a list, after a small link back to that list (`label` is its accessible name). */
export function BackLinkTitle({ to, label, children }: { to: LinkProps['to']; label: string; children: ReactNode }) {
  return (
    <span className="flex items-center gap-2">
      <Button variant="ghost" size="icon-sm" asChild>
        <Link to={to} aria-label={label}>
          <ArrowLeft />
        </Link>
      </Button>
      {children}
    </span>
  );
}

/**
 * A screen about one record: a header with a link back to its list, the record's name (`title`) and actions,
 * then a skeleton while the record loads ("Loading <noun>"), the error ("Could not load the <noun>"), or
 * `children` with the record.
 */
export function DetailPage<T>({
  query,
  noun,
  backTo,
  backLabel,
  title,
  actions,
  children,
}: {
  query: UseQueryResult<T, Error>;
  noun: string;
  backTo: LinkProps['to'];
  /** The back link's accessible name, e.g. "Back to automation". */
  backLabel: string;
  /** Shown from the first render: pass a stand-in (e.g. "Bot") for while the record loads. */
  title: ReactNode;
  actions?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      <PageHeader
        title={
          <BackLinkTitle to={backTo} label={backLabel}>
            {title}
          </BackLinkTitle>
        }
        actions={actions}
      />
      <div className="flex flex-col gap-6 p-6">
        {query.isPending ? (
          <Card>
            <ListSkeleton rows={2} label={`Loading ${noun}`} />
          </Card>
        ) : query.isError ? (
          <EmptyState title={`Could not load the ${noun}`} description={query.error.message} />
        ) : (
          children(query.data)
        )}
      </div>
    </>
  );
}
