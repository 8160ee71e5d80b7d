import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowUp, Bot, Hourglass, Inbox, SearchX } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, memo, useEffect, useMemo, useRef, useState } from 'react';
import type { ConversationListEntry } from '@shared/schemas/entities';
import { cn } from '../../../lib/cn';
import { plural } from '../../../lib/format';
import { scrollToRowAndFocus, useFetchNextPageNearEnd } from '../../../lib/virtual-rows';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState, LoadErrorState } from '../../../components/ui/empty-state';
import { ListSkeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { TruncatedText } from '../../../components/ui/tooltip';
import { useConversationList } from '../api/list-conversations';
import { focusRequest, listScrollOffsets } from '../hooks/use-live-chat-ui';
import { formatListTime, formatWaiting, waitingSinceOf } from '../utils/format';
import { messagePreview } from '../utils/message-content';
import type { LiveChatTab } from '../utils/tabs';
import { DeliveryTicks } from './delivery-ticks';
import type { NameLookup } from './timeline-rows';
import { contactLabel } from '@shared/contact-label';

export const CONVERSATION_ROW_HEIGHT = 72;

const ConversationRow = memo(function ConversationRow({
  entry,
  active,
  tab,
  index,
  names,
  tabbable,
  now,
}: {
  entry: ConversationListEntry;
  active: boolean;
  tab: LiveChatTab;
  index: number;
  names: NameLookup;
  /** The list is one Tab stop: only this row is in the Tab order, arrow keys move between rows. */
  tabbable: boolean;
  /** The minute the waiting times are counted to. */
  now: Date;
}) {
  const name = contactLabel(entry.Contact);
  const last = entry.lastMessage;
  const assignee = entry.assigneeBotId ? names.bot(entry.assigneeBotId) ?? 'Bot' : entry.assigneeMemberId ? names.member(entry.assigneeMemberId) : null;
  const when = last?.createdAt ?? entry.lastMessageAt ?? entry.createdAt;
  const preview = last ? messagePreview(last) : 'No messages yet';
  const previewId = `conversation-preview-${entry.id}`;
  const unread = !!entry.unread && !active;
  const waitingSince = entry.isActive ? waitingSinceOf(entry) : null;
  const waited = waitingSince ? formatWaiting(waitingSince, now) : null;
  return (
    // The accessible name is short (contact, state, time); the last message is its description.
    <Link
      to="/live-chat/$conversationId"
      params={{ conversationId: entry.id }}
      search={{ tab }}
      data-index={index}
      data-conversation-id={entry.id}
      aria-current={active ? 'page' : undefined}
      aria-describedby={previewId}
      tabIndex={tabbable ? 0 : -1}
      onClick={() => {
        // Opened by Enter or by the mouse, the agent wants to write: the composer takes focus when it opens.
        focusRequest.conversationId = entry.id;
      }}
      data-unread={unread || undefined}
      className={cn(
        'group flex h-full items-center gap-3 border-b border-border/60 px-3 outline-none transition-colors',
        'hover:bg-subtle focus-visible:bg-subtle focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
        active && 'bg-accent-soft hover:bg-accent-soft',
      )}
    >
      <Avatar name={entry.Contact.name ?? (entry.Contact.username || entry.Contact.phoneNumber?.slice(-2) || '?')} className="size-10 text-[13px]" />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2">
          {unread && <span className="sr-only">Unread, </span>}
          <TruncatedText text={name} className={cn('text-[14px] text-fg', unread ? 'font-semibold' : 'font-medium')} />
          <span className="sr-only">{assignee ? `, assigned to ${assignee}, ` : entry.needsPerson ? ', unassigned, needs a person, ' : ', unassigned, '}</span>
          {waited && (
            <span
              className="ml-auto inline-flex shrink-0 items-center gap-0.5 rounded-full bg-warning-soft px-1.5 text-[11px] text-warning-text tabular-nums"
              title={`The customer has waited ${waited} for an answer`}
              data-testid="waiting-since"
            >
              <Hourglass className="size-3" aria-hidden />
              <span className="sr-only">waiting </span>
              {waited}
              <span className="sr-only">, </span>
            </span>
          )}
          <time className={cn('shrink-0 text-[11px]', !waited && 'ml-auto', active ? 'text-accent-text' : 'text-fg-subtle')} dateTime={when}>
            {formatListTime(when)}
          </time>
        </div>
        <div className="mt-0.5 flex items-center gap-1.5" aria-hidden>
          {last && last.creator !== 'user' && <DeliveryTicks status={last.status} failureReason={last.failureReason} />}
          <span id={previewId} className={cn('emoji-text truncate text-[13px]', unread ? 'font-medium text-fg' : 'text-fg-muted')}>
            {preview}
          </span>
          {unread && <span className="ml-1 size-2.5 shrink-0 rounded-full bg-accent" title="Unread" />}
          {entry.needsPerson && !assignee && (
            <Badge tone="red" className="ml-auto shrink-0 text-[11px]" title="A bot could not finish: this conversation waits for a person">
              Needs a person
            </Badge>
          )}
          {assignee && (
            <span
              className="ml-auto inline-flex max-w-[40%] shrink-0 items-center gap-1 truncate rounded-full bg-muted px-1.5 py-px text-[11px] text-fg-muted"
              title={`Assigned to ${assignee}`}
            >
              {entry.assigneeBotId && <Bot className="size-3" aria-hidden />}
              <span className="truncate">{assignee}</span>
            </span>
          )}
        </div>
      </div>
    </Link>
  );
});

/**
 * One tab of the inbox: virtualised (only the rows in view are in the DOM) and paged (the next page loads as
 * the user nears the end). Arrow keys move between conversations.
 */
export function ConversationList({
  workspaceId,
  tab,
  search,
  activeId,
  names,
  emptyState,
  sort = 'recent',
}: {
  workspaceId: string;
  tab: LiveChatTab;
  search: string;
  activeId?: string;
  names: NameLookup;
  /** What an empty tab (no search) says instead of the generic text. */
  emptyState?: ReactNode;
  /** `waiting`: only conversations waiting for an answer, longest first. */
  sort?: 'recent' | 'waiting';
}) {
  const query = useConversationList(workspaceId, tab, search, sort);
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const all = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const parentRef = useRef<HTMLDivElement>(null);
  const scrollKey = `${workspaceId}|${tab}|${search}|${sort}`;

  // While the agent is scrolled down, conversations that arrive at the top wait behind a pill instead of pushing
  // the rows they are reading down. Rows already shown (and later pages) are "known" and always shown.
  const known = useRef(new Set<string>());
  const [scrolledDown, setScrolledDown] = useState(() => (listScrollOffsets.get(scrollKey) ?? 0) > 8);
  const items = useMemo(() => {
    if (!scrolledDown) return all;
    const firstKnown = all.findIndex((c) => known.current.has(c.id));
    return firstKnown > 0 ? all.slice(firstKnown) : all;
  }, [all, scrolledDown]);
  const waiting = all.length - items.length;
  useEffect(() => {
    for (const c of items) known.current.add(c.id);
  }, [items]);
  const [focusedIndex, setFocusedIndex] = useState<number | null>(null);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => CONVERSATION_ROW_HEIGHT,
    getItemKey: (i) => items[i].id,
    overscan: 8,
    initialOffset: () => listScrollOffsets.get(scrollKey) ?? 0,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems[virtualItems.length - 1]?.index ?? 0;

  useFetchNextPageNearEnd(query, lastIndex, items.length, 10);

  const showWaiting = () => {
    setScrolledDown(false);
    parentRef.current?.scrollTo({ top: 0 });
    listScrollOffsets.set(scrollKey, 0);
  };
  const activeIndex = activeId ? items.findIndex((c) => c.id === activeId) : -1;
  // The one row in the Tab order: the last focused, else the open conversation, else the first; a row scrolled
  // out of the DOM hands the stop to the first row rendered.
  const wanted = focusedIndex ?? (activeIndex >= 0 ? activeIndex : 0);
  const tabStop = virtualItems.some((v) => v.index === wanted) ? wanted : (virtualItems[0]?.index ?? 0);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    const current = (document.activeElement as HTMLElement | null)?.closest('[data-index]');
    const from = current ? Number(current.getAttribute('data-index')) : -1;
    const to =
      e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1 : Math.max(0, Math.min(items.length - 1, from + (e.key === 'ArrowDown' ? 1 : -1)));
    if (to === from || items.length === 0) return;
    e.preventDefault();
    setFocusedIndex(to);
    scrollToRowAndFocus(virtualizer, parentRef, to);
  };

  if (query.isPending) return <ListSkeleton rows={8} label="Loading conversations" />;
  if (query.isError) return <LoadErrorState title="Conversations could not be loaded" error={query.error} onRetry={() => void query.refetch()} />;
  if (items.length === 0) {
    return search ? (
      <EmptyState icon={SearchX} title="No matches" description={`No conversation in this tab matches “${search}”.`} />
    ) : sort === 'waiting' ? (
      <EmptyState icon={Inbox} title="Nobody is waiting" description="Every conversation of this tab has an answer after the customer's last message." />
    ) : (
      (emptyState ?? <EmptyState icon={Inbox} title="Nothing here" description="Conversations of this tab show up here as customers write." />)
    );
  }

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
    {waiting > 0 && (
      <Button size="sm" className="absolute top-2 left-1/2 z-10 -translate-x-1/2 rounded-full shadow-md" onClick={showWaiting}>
        <ArrowUp aria-hidden />
        {plural(waiting, 'new conversation')}
      </Button>
    )}
    <div
      ref={parentRef}
      onScroll={() => {
        const top = parentRef.current?.scrollTop ?? 0;
        listScrollOffsets.set(scrollKey, top);
        if (top > 8 !== scrolledDown) setScrolledDown(top > 8);
      }}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        const row = (e.target as HTMLElement).closest('[data-index]');
        if (row) setFocusedIndex(Number(row.getAttribute('data-index')));
      }}
      className="min-h-0 flex-1 overflow-y-auto"
      data-testid="conversation-scroller"
    >
      <nav aria-label="Conversations" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualItems.map((v) => (
          <div
            key={v.key}
            className="absolute top-0 left-0 w-full"
            style={{ height: v.size, transform: `translateY(${v.start}px)` }}
          >
            <ConversationRow
              entry={items[v.index]}
              active={items[v.index].id === activeId}
              tab={tab}
              index={v.index}
              names={names}
              tabbable={v.index === tabStop}
              now={now}
            />
          </div>
        ))}
      </nav>
      {query.isFetchingNextPage && (
        <div className="flex justify-center py-3">
          <Spinner label="Loading more conversations" />
        </div>
      )}
    </div>
    </div>
  );
}
