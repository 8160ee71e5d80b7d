/**
 * Workspace message search: every conversation of the workspace the member can open (the whole
 * workspace: agents work all of live chat), newest first. Each hit shows the contact, a snippet around the
 * match with the words marked, and the time; choosing one opens its conversation at that message (the
 * conversation view pages back to it and marks it, as the in-conversation search does). A combobox over a
 * virtualised listbox: type, ↑/↓ (Page Up/Down, Home/End) to move, Enter to open, Escape to close.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { MessageSquareText, StickyNote } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import type { MessageSearchHit } from '@shared/schemas/agent-tools';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useMessageSearch } from '../api/search-messages';
import { formatFull, formatListTime } from '../utils/format';
import { snippetAround } from '../utils/snippet';
import { highlightRuns } from './message-text';
import { contactLabel } from '@shared/contact-label';

type Hit = z.infer<typeof MessageSearchHit>;
const ROW_PX = 68;

export interface MessageSearchChoice {
  conversationId: string;
  messageId: string;
  createdAt: string;
  terms: string[];
}

function HitRow({ hit, terms, active }: { hit: Hit; terms: string[]; active: boolean }) {
  const name = contactLabel(hit.contact);
  const note = hit.message.type === 'note';
  const runs = highlightRuns(snippetAround(hit.message.text ?? '', terms), terms);
  const Icon = note ? StickyNote : MessageSquareText;
  return (
    <div className={cn('flex h-full items-start gap-3 rounded-md px-2.5 py-2 text-[13px]', active && 'bg-accent-soft')}>
      <Icon className="mt-0.5 size-4 shrink-0 text-fg-subtle" aria-hidden />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2">
          <span className={cn('min-w-0 flex-1 truncate font-medium text-fg', active && 'text-accent-text')}>
            {name}
            {note && <span className="ml-1.5 text-[11.5px] font-normal text-fg-muted">· internal note</span>}
          </span>
          <time dateTime={hit.message.createdAt} title={formatFull(hit.message.createdAt)} className="shrink-0 text-[11.5px] text-fg-muted tabular-nums">
            {formatListTime(hit.message.createdAt)}
          </time>
        </div>
        <p className="emoji-text mt-0.5 line-clamp-2 text-[12.5px] break-words text-fg-muted">
          {runs.map((r, i) =>
            r.mark ? (
              <mark key={i} className="rounded-sm bg-warning-soft px-0.5 text-fg">
                {r.text}
              </mark>
            ) : (
              <span key={i}>{r.text}</span>
            ),
          )}
        </p>
      </div>
    </div>
  );
}

function useDebounced(value: string, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function SearchBody({ workspaceId, initial, onChoose }: { workspaceId: string; initial: string; onChoose: (c: MessageSearchChoice) => void }) {
  const [text, setText] = useState(initial);
  const q = useDebounced(text.trim(), 250);
  const search = useMessageSearch(workspaceId, q);
  const hits = useMemo(() => (q ? (search.data?.pages.flatMap((p) => p.items) ?? []) : []), [q, search.data]);
  const terms = useMemo(() => search.data?.pages[0]?.terms ?? [], [search.data]);
  const [active, setActive] = useState(0);
  useEffect(() => setActive(0), [q]);
  const current = Math.min(active, Math.max(0, hits.length - 1));
  const listId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: hits.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_PX, overscan: 6 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = search;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= hits.length - 5) void fetchNextPage();
  }, [lastIndex, hits.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const moveTo = (i: number) => {
    if (hits.length === 0) return;
    const next = Math.max(0, Math.min(hits.length - 1, i));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const choose = (hit: Hit | undefined) => {
    if (hit) onChoose({ conversationId: hit.message.conversationId, messageId: hit.message.id, createdAt: hit.message.createdAt, terms });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_PX * 5) / ROW_PX) - 1);
    const moves: Record<string, number> = { ArrowDown: current + 1, ArrowUp: current - 1, PageDown: current + page, PageUp: current - page };
    if (e.key in moves) {
      e.preventDefault();
      moveTo(moves[e.key]);
    } else if ((e.key === 'Home' || e.key === 'End') && e.ctrlKey) {
      e.preventDefault();
      moveTo(e.key === 'Home' ? 0 : hits.length - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(hits[current]);
    }
  };

  const status = !q
    ? 'Type words from a message: every word must appear (as the start of a word).'
    : search.isError
      ? errorText(search.error)
      : search.isPending
        ? 'Searching…'
        : hits.length === 0
          ? `No message matches “${q}”.`
          : `${hits.length}${hasNextPage ? '+' : ''} ${hits.length === 1 ? 'message' : 'messages'}`;

  return (
    <>
      <Input
        autoFocus
        type="search"
        role="combobox"
        aria-expanded={hits.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={hits[current] ? `${listId}-${current}` : undefined}
        aria-label="Search messages"
        placeholder="Search all messages"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <p role="status" aria-live="polite" className="mt-2 flex items-center gap-2 text-[12px] text-fg-muted" data-testid="message-search-status">
        {search.isFetching && q ? <Spinner className="size-3" label="Searching" /> : null}
        {status}
      </p>
      <div ref={scroller} className="mt-2 max-h-[min(55vh,26rem)] overflow-y-auto" data-testid="message-search-scroller">
        <div id={listId} role="listbox" aria-label="Messages found" aria-busy={search.isFetching} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((v) => {
            const hit = hits[v.index];
            return (
              <div
                key={hit.message.id}
                id={`${listId}-${v.index}`}
                role="option"
                aria-selected={v.index === current}
                aria-posinset={v.index + 1}
                aria-setsize={hasNextPage ? -1 : hits.length}
                data-index={v.index}
                ref={virtualizer.measureElement}
                onMouseMove={() => setActive(v.index)}
                onClick={() => choose(hit)}
                className="absolute top-0 left-0 w-full cursor-pointer"
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <HitRow hit={hit} terms={terms} active={v.index === current} />
              </div>
            );
          })}
        </div>
        {isFetchingNextPage && (
          <div className="flex justify-center py-2">
            <Spinner label="Loading more messages" />
          </div>
        )}
      </div>
    </>
  );
}

export function MessageSearchDialog({
  workspaceId,
  query,
  onOpenChange,
  onChoose,
}: {
  workspaceId: string;
  /** The words to start with while open; null: closed. */
  query: string | null;
  onOpenChange: (open: boolean) => void;
  onChoose: (c: MessageSearchChoice) => void;
}) {
  return (
    <Dialog open={query !== null} onOpenChange={onOpenChange}>
      {query !== null && (
        <DialogContent title="Search messages" description="In every conversation of this workspace, newest first." className="max-w-2xl">
          <SearchBody workspaceId={workspaceId} initial={query} onChoose={onChoose} />
        </DialogContent>
      )}
    </Dialog>
  );
}
