import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ArrowUpDown, Check, Pencil, SearchX, Users } from 'lucide-react';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import type { ContactSort } from '@shared/schemas/requests';
import type { Attribute, Contact } from '@shared/schemas/entities';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState, LoadErrorState } from '../../../components/ui/empty-state';
import { ListSkeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { TruncatedText } from '../../../components/ui/tooltip';
import { cn } from '../../../lib/cn';
import { formatDate } from '../../../lib/format';
import { scrollToRowAndFocus, useFetchNextPageNearEnd } from '../../../lib/virtual-rows';
import { useContacts } from '../api/list-contacts';
import { type ContactOrder, NEWEST_FIRST } from '../api/keys';
import { usePatchContact } from '../../../lib/queries/contacts';
import { contactLabel } from '@shared/contact-label';
import { ContactPhone } from '../../../components/ui/contact-phone';

export const CONTACT_ROW_HEIGHT = 48;

function AttributeCell({ attribute, value }: { attribute: Attribute; value: Contact['attributes'][string] | undefined }) {
  if (value === undefined || value === null || value === '') return <span className="text-fg-subtle">—</span>;
  if (attribute.format === 'boolean') {
    const on = value === true || value === 'true';
    return on ? <Check className="size-4 text-accent" aria-label="Yes" /> : <span className="text-fg-muted">No</span>;
  }
  return <span className={attribute.format === 'number' ? 'tabular-nums' : ''}>{String(value)}</span>;
}

const headerClass = 'h-9 border-b border-border px-4 text-left text-[11px] font-medium tracking-wide whitespace-nowrap text-fg-subtle uppercase';

/**
 * A column the list can be sorted by: its header is a button (Tab and Enter reach it); the sorted column says
 * its direction in aria-sort. A first click sorts names and numbers A to Z and dates newest first, the next
 * one reverses.
 */
function SortableHeader({ label, sort, current, onSort }: { label: string; sort: ContactSort; current: ContactOrder; onSort: (next: ContactOrder) => void }) {
  const active = current.sort === sort;
  const Icon = !active ? ArrowUpDown : current.order === 'asc' ? ArrowUp : ArrowDown;
  const next: ContactOrder = active
    ? { sort, order: current.order === 'asc' ? 'desc' : 'asc' }
    : { sort, order: sort === 'createdAt' ? 'desc' : 'asc' };
  return (
    <th scope="col" aria-sort={active ? (current.order === 'asc' ? 'ascending' : 'descending') : undefined} className={headerClass}>
      <button
        type="button"
        onClick={() => onSort(next)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase hover:text-fg focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
      >
        {label}
        <Icon aria-hidden className={cn('size-3.5', !active && 'opacity-40')} />
      </button>
    </th>
  );
}

/** The table's header: sortable Name, Phone number and Added, one column per attribute, and Actions. */
function ContactsHead({ order, onSort, attributes }: { order: ContactOrder; onSort: (next: ContactOrder) => void; attributes: Attribute[] }) {
  return (
    <thead className="sticky top-0 z-10 bg-surface">
      <tr>
        <SortableHeader label="Name" sort="name" current={order} onSort={onSort} />
        <SortableHeader label="Phone number" sort="phoneNumber" current={order} onSort={onSort} />
        {['E-mail', 'Country', 'Campaigns'].map((h) => (
          <th key={h} scope="col" className={headerClass}>
            {h}
          </th>
        ))}
        <SortableHeader label="Added" sort="createdAt" current={order} onSort={onSort} />
        {attributes.map((a) => (
          <th key={a.id} scope="col" className={headerClass}>
            {a.name}
          </th>
        ))}
        {/* Pinned to the right edge so Edit stays in reach however many attribute columns there are. */}
        <th scope="col" className="sticky right-0 h-9 w-12 border-b border-border bg-surface">
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

interface ContactRowProps {
  index: number;
  contact: Contact;
  attributes: Attribute[];
  /** The table's one contact mutation (Opt back in waits while any is pending). */
  patch: ReturnType<typeof usePatchContact>;
  onEdit: (contact: Contact) => void;
}

/** One contact; Enter and the arrows are handled by the table body (it knows the neighbours). */
function ContactRow({ index, contact: c, attributes, patch, onEdit }: ContactRowProps) {
  return (
    <tr
      data-index={index}
      aria-rowindex={index + 2}
      tabIndex={0}
      onDoubleClick={() => onEdit(c)}
      className={cn('group outline-none hover:bg-subtle focus-visible:bg-accent-soft')}
      style={{ height: CONTACT_ROW_HEIGHT }}
    >
      <td className="border-b border-border/70 px-4">
        <div className="flex items-center gap-2.5">
          <Avatar name={c.name ?? (c.username || c.phoneNumber?.slice(-2) || '?')} className="size-7" />
          <TruncatedText text={c.name || 'No name'} className={cn('max-w-56 font-medium', !c.name && 'text-fg-subtle')} />
        </div>
      </td>
      <td className="border-b border-border/70 px-4 whitespace-nowrap">
        <ContactPhone contact={c} />
      </td>
      <td className="max-w-60 truncate border-b border-border/70 px-4">{c.email ?? <span className="text-fg-subtle">—</span>}</td>
      <td className="border-b border-border/70 px-4">{c.country ?? <span className="text-fg-subtle">—</span>}</td>
      <td className="border-b border-border/70 px-4 whitespace-nowrap">
        {c.optedOut ? (
          <span className="flex items-center gap-1.5">
            <Badge tone="amber">Opted out</Badge>
            <Button
              variant="link"
              size="sm"
              className="text-[12px]"
              disabled={patch.isPending}
              aria-label={`Opt ${contactLabel(c)} back in to campaigns`}
              onClick={() => patch.mutate({ contactId: c.id, body: { optedOut: false } })}
            >
              Opt back in
            </Button>
          </span>
        ) : (
          <span className="text-fg-subtle">Subscribed</span>
        )}
      </td>
      <td className="border-b border-border/70 px-4 whitespace-nowrap text-fg-muted tabular-nums">{formatDate(c.createdAt)}</td>
      {attributes.map((a) => (
        <td key={a.id} className="max-w-48 truncate border-b border-border/70 px-4 whitespace-nowrap">
          <AttributeCell attribute={a} value={c.attributes[a.name]} />
        </td>
      ))}
      <td className="sticky right-0 border-b border-border/70 bg-surface pr-3 text-right shadow-[-10px_0_10px_-8px_rgb(0_0_0/0.25)] group-hover:bg-subtle group-focus-visible:bg-accent-soft">
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={() => onEdit(c)}
          aria-label={`Edit ${contactLabel(c)}`}
        >
          <Pencil />
        </Button>
      </td>
    </tr>
  );
}

/**
 * The audience as a table: virtualised rows (the DOM holds only what is in view), pages loaded as the user
 * scrolls, one column per contact attribute. Enter or the pencil edits a contact. Name, phone number and
 * date added sort the list (on the server, so every page follows the order).
 */
export function ContactsTable({
  workspaceId,
  search,
  segmentId,
  optedOut = null,
  attributes,
  onEdit,
  onCount,
}: {
  workspaceId: string;
  search: string;
  segmentId: string | null;
  /** Only opted-out contacts (true), only those who receive campaigns (false), or all (null). */
  optedOut?: boolean | null;
  attributes: Attribute[];
  onEdit: (contact: Contact) => void;
  onCount?: (loaded: number, more: boolean) => void;
}) {
  const [order, setOrder] = useState<ContactOrder>(NEWEST_FIRST);
  const query = useContacts(workspaceId, search, segmentId, optedOut, order);
  const patch = usePatchContact(workspaceId);
  const contacts = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: contacts.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => CONTACT_ROW_HEIGHT,
    getItemKey: (i) => contacts[i].id,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;
  useFetchNextPageNearEnd(query, lastIndex, contacts.length, 20);
  useEffect(() => onCount?.(contacts.length, !!query.hasNextPage), [contacts.length, query.hasNextPage, onCount]);
  // A new order starts at its first row.
  useEffect(() => {
    if (parentRef.current) parentRef.current.scrollTop = 0;
  }, [order]);

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>, index: number) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onEdit(contacts[index]);
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const to = Math.max(0, Math.min(contacts.length - 1, index + (e.key === 'ArrowDown' ? 1 : -1)));
    scrollToRowAndFocus(virtualizer, parentRef, to);
  };

  if (query.isPending) return <ListSkeleton rows={10} label="Loading contacts" />;
  if (query.isError) return <LoadErrorState title="Contacts could not be loaded" error={query.error} onRetry={() => void query.refetch()} />;
  if (contacts.length === 0) {
    return search || segmentId || optedOut !== null ? (
      <EmptyState icon={SearchX} title="No contacts match" description="Try another search, segment or campaign filter." />
    ) : (
      <EmptyState icon={Users} title="No contacts yet" description="Import a CSV to add your customers, or they appear here as they write to you." />
    );
  }

  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const colSpan = 7 + attributes.length;
  return (
    <div ref={parentRef} className="scroll-cue-x min-h-0 flex-1 overflow-auto" data-testid="contacts-scroller">
      <table className="w-full border-separate border-spacing-0 text-[13px]" aria-rowcount={contacts.length + 1} aria-busy={query.isPlaceholderData}>
        <ContactsHead order={order} onSort={setOrder} attributes={attributes} />
        <tbody onKeyDown={(e) => {
          const row = (e.target as HTMLElement).closest('tr[data-index]');
          if (row) onKeyDown(e, Number(row.getAttribute('data-index')));
        }}>
          {top > 0 && (
            <tr aria-hidden>
              <td colSpan={colSpan} style={{ height: top, padding: 0 }} />
            </tr>
          )}
          {items.map((v) => (
              <ContactRow key={v.key} index={v.index} contact={contacts[v.index]} attributes={attributes} patch={patch} onEdit={onEdit} />
          ))}
          {bottom > 0 && (
            <tr aria-hidden>
              <td colSpan={colSpan} style={{ height: bottom, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
      {query.isFetchingNextPage && (
        <div className="flex justify-center py-3">
          <Spinner label="Loading more contacts" />
        </div>
      )}
    </div>
  );
}
