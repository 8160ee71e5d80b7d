import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown } from 'lucide-react';
import { forwardRef, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import type { Message } from '@shared/schemas/entities';
import type { TimelineItem } from '../utils/timeline';
import { MessageBubble } from './message-bubble';
import { DaySeparator, EventRow, type NameLookup } from './timeline-rows';

export interface MessageTimelineHandle {
  scrollToBottom: () => void;
  /** Brings a loaded message into the middle of the view (search matches); false when it is not loaded. */
  scrollToMessage: (messageId: string) => boolean;
}

interface MessageTimelineProps {
  items: TimelineItem[];
  names: NameLookup;
  senderName: (m: Message) => string | null;
  hasOlder: boolean;
  loadingOlder: boolean;
  /** Asked for when the user nears the top; receives the oldest message id held. */
  onLoadOlder: (oldestMessageId: string) => void;
  /** Words of a search in the conversation, marked in the messages. */
  highlight?: readonly string[];
  /** The search match the agent is on. */
  currentMatchId?: string | null;
  /** The first message the member has not read: a "New messages" divider goes above it. */
  firstUnreadId?: string | null;
}

/** Pixels from the bottom within which the user counts as "at the bottom" (new messages keep it stuck there). */
const STICK_PX = 48;

type Row = TimelineItem | { kind: 'head'; key: 'head' };

/** The top row: older messages loading, more above, or the start of the conversation. */
function TimelineHead({ loadingOlder, hasOlder }: { loadingOlder: boolean; hasOlder: boolean }) {
  return (
    <div className="flex h-10 items-center justify-center text-[12px] text-fg-muted">
      {loadingOlder ? (
        <Spinner label="Loading older messages" />
      ) : hasOlder ? (
        <span>Scroll up for older messages</span>
      ) : (
        <span className="rounded-md bg-warning-soft px-3 py-1 text-warning-text">Start of the conversation</span>
      )}
    </div>
  );
}

function NewMessagesDivider() {
  return (
    <div role="separator" aria-label="New messages" className="flex items-center gap-3 px-6 py-1.5 text-[12px] font-medium text-accent-text">
      <span className="h-px flex-1 bg-accent/50" />
      {/* On its own soft pill: accent text straight on the chat wallpaper is below 4.5:1. */}
      <span className="rounded-full bg-accent-soft px-2 py-0.5">New messages</span>
      <span className="h-px flex-1 bg-accent/50" />
    </div>
  );
}

/**
 * The conversation's messages and events, virtualised (only a window of rows is in the DOM, a conversation can
 * hold 10,000 messages), starting at the bottom. New rows keep the view at the bottom only if the user was
 * there; older pages loaded at the top keep what the user was reading in place.
 */
export const MessageTimeline = forwardRef<MessageTimelineHandle, MessageTimelineProps>(function MessageTimeline(
  { items, names, senderName, hasOlder, loadingOlder, onLoadOlder, highlight, currentMatchId, firstUnreadId },
  ref,
) {
  const rows: Row[] = [{ kind: 'head', key: 'head' }, ...items];
  const parentRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [unseen, setUnseen] = useState(0);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => (rows[i].kind === 'message' ? 60 : rows[i].kind === 'head' ? 44 : 36),
    getItemKey: (i) => rows[i].key,
    overscan: 6,
    paddingEnd: 12,
    // First paint already at the bottom (estimated), before the exact scroll below.
    initialOffset: () => rows.length * 60,
  });

  const scrollToBottom = useCallback(() => {
    atBottom.current = true;
    setUnseen(0);
    virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [virtualizer, rows.length]);
  const scrollToMessage = useCallback(
    (messageId: string) => {
      const index = rows.findIndex((r) => r.kind === 'message' && r.message.id === messageId);
      if (index < 0) return false;
      atBottom.current = false;
      virtualizer.scrollToIndex(index, { align: 'center' });
      return true;
    },
    [rows, virtualizer],
  );
  useImperativeHandle(ref, () => ({ scrollToBottom, scrollToMessage }), [scrollToBottom, scrollToMessage]);

  // Start at the bottom; older pages are asked for only once the view has settled there (and the user scrolls up).
  const [settled, setSettled] = useState(false);
  useLayoutEffect(() => {
    virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    const frame = requestAnimationFrame(() => requestAnimationFrame(() => setSettled(true)));
    return () => cancelAnimationFrame(frame);
    // Only on mount: the component is keyed by conversation.
  }, []);

  // Keep the reader's place when rows arrive above (older page) and follow new rows below when at the bottom.
  const prev = useRef<{ first: string | undefined; firstStart: number; last: string | undefined; count: number }>({
    first: items[0]?.key,
    firstStart: 0,
    last: items[items.length - 1]?.key,
    count: items.length,
  });
  useLayoutEffect(() => {
    const before = prev.current;
    const first = items[0]?.key;
    const last = items[items.length - 1]?.key;
    // rows[0] is the head row: the first item's start in this layout is measurementsCache[1].
    prev.current = { first, firstStart: virtualizer.measurementsCache[1]?.start ?? 0, last, count: items.length };
    const el = parentRef.current;
    if (!el) return;
    if (before.first && first !== before.first) {
      const idx = rows.findIndex((r) => r.key === before.first);
      const newStart = idx > 0 ? virtualizer.measurementsCache[idx]?.start : undefined;
      if (newStart !== undefined) {
        el.scrollTop += newStart - before.firstStart;
        prev.current.firstStart = virtualizer.measurementsCache[1]?.start ?? 0;
      }
    }
    if (last !== before.last && items.length >= before.count) {
      if (atBottom.current) {
        virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
      } else {
        const added = items.length - before.count;
        if (added > 0) setUnseen((n) => n + added);
      }
    }
  });

  const onScroll = () => {
    const el = parentRef.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_PX;
    if (atBottom.current && unseen) setUnseen(0);
  };

  const virtualItems = virtualizer.getVirtualItems();
  const firstIndex = virtualItems[0]?.index ?? 0;
  const oldestMessage = items.find((i) => i.kind === 'message');
  const oldestId = oldestMessage?.kind === 'message' ? oldestMessage.message.id : undefined;
  useEffect(() => {
    if (settled && hasOlder && !loadingOlder && oldestId && firstIndex < 8) onLoadOlder(oldestId);
  }, [settled, firstIndex, hasOlder, loadingOlder, oldestId, onLoadOlder]);

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={parentRef}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label="Messages"
        data-testid="message-scroller"
        className="h-full overflow-y-auto overscroll-contain bg-chat-bg focus-visible:outline-offset-[-2px]"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          {virtualItems.map((v) => {
            const row = rows[v.index];
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                className="absolute top-0 left-0 w-full py-[3px]"
                style={{ transform: `translateY(${v.start}px)` }}
              >
                {row.kind === 'head' ? (
                  <TimelineHead loadingOlder={loadingOlder} hasOlder={hasOlder} />
                ) : row.kind === 'day' ? (
                  <DaySeparator at={row.at} />
                ) : row.kind === 'event' ? (
                  <EventRow event={row.event} names={names} />
                ) : (
                  <>
                    {row.message.id === firstUnreadId && <NewMessagesDivider />}
                    <MessageBubble
                      message={row.message}
                      senderName={senderName(row.message)}
                      highlight={highlight && highlight.length > 0 ? highlight : undefined}
                      current={currentMatchId === row.message.id}
                    />
                  </>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {unseen > 0 && (
        <button
          type="button"
          onClick={scrollToBottom}
          className="absolute right-5 bottom-4 flex cursor-pointer items-center gap-1.5 rounded-full bg-surface px-3 py-1.5 text-[12px] font-medium text-fg shadow-md ring-1 ring-border hover:bg-subtle"
        >
          <ArrowDown className="size-3.5" aria-hidden />
          {unseen} new {unseen === 1 ? 'message' : 'messages'}
        </button>
      )}
    </div>
  );
});
