/**
 * Search inside the open conversation: every match (full text on the server, so messages not loaded
 * yet count too), "n of m", Enter / Shift+Enter or the arrows to move between them (newest first, as the agent
 * reads upwards), Escape to close. Moving to a match older than what is loaded pages back first (Body).
 */
import { ChevronDown, ChevronUp, Search, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useConversationSearch } from '../api/search-conversation';

export interface SearchState {
  terms: string[];
  matchId: string | null;
}

export function ConversationSearch({
  conversationId,
  onChange,
  onJump,
  onClose,
}: {
  conversationId: string;
  /** The words to highlight and the match the agent is on. */
  onChange: (s: SearchState) => void;
  /** Asked to bring a match into view (loading older pages as needed). */
  onJump: (match: { id: string; createdAt: string }) => void;
  onClose: () => void;
}) {
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [index, setIndex] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);
  useEffect(() => {
    const timer = setTimeout(() => setQ(input.trim()), 250);
    return () => clearTimeout(timer);
  }, [input]);
  const search = useConversationSearch(conversationId, q);
  const matches = q ? (search.data?.matches ?? []) : [];
  const terms = q ? (search.data?.terms ?? []) : [];

  // A new answer starts at the newest match.
  const answer = search.data;
  useEffect(() => {
    setIndex(answer && answer.matches.length > 0 ? answer.matches.length - 1 : -1);
  }, [answer]);
  const current = index >= 0 ? matches[index] : undefined;
  useEffect(() => {
    onChange({ terms, matchId: current?.id ?? null });
    if (current) onJump(current);
    // onChange/onJump are the Body's stable callbacks; terms follow the answer.
  }, [current?.id, terms.join(' ')]);

  const move = (step: 1 | -1) => {
    if (matches.length === 0) return;
    setIndex((i) => (i + step + matches.length) % matches.length);
  };
  const status = !q ? '' : search.isFetching && !search.data ? 'Searching…' : matches.length === 0 ? 'No matches' : `${index + 1} of ${matches.length}`;

  return (
    <div role="search" aria-label="Search in this conversation" className="flex items-center gap-2 border-b border-border bg-surface px-4 py-2">
      <Search className="size-4 shrink-0 text-fg-muted" aria-hidden />
      <label htmlFor={`conversation-search-${conversationId}`} className="sr-only">
        Search in this conversation
      </label>
      <input
        ref={inputRef}
        id={`conversation-search-${conversationId}`}
        type="search"
        value={input}
        placeholder="Search in this conversation"
        onChange={(e) => setInput(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            move(e.shiftKey ? 1 : -1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
        className="min-w-0 flex-1 rounded-md border border-border-strong bg-bg px-2.5 py-1.5 text-[13px] text-fg placeholder:text-fg-subtle focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none"
      />
      <span role="status" aria-live="polite" className="w-24 shrink-0 text-right text-[12px] text-fg-muted tabular-nums" data-testid="conversation-search-status">
        {search.isFetching && q ? <Spinner className="inline size-3" label="Searching" /> : null} {status}
      </span>
      <Button type="button" variant="ghost" size="icon" aria-label="Older match" title="Older match (Enter)" disabled={matches.length === 0} onClick={() => move(-1)}>
        <ChevronUp aria-hidden />
      </Button>
      <Button type="button" variant="ghost" size="icon" aria-label="Newer match" title="Newer match (Shift+Enter)" disabled={matches.length === 0} onClick={() => move(1)}>
        <ChevronDown aria-hidden />
      </Button>
      <Button type="button" variant="ghost" size="icon" aria-label="Close search" onClick={onClose}>
        <X aria-hidden />
      </Button>
    </div>
  );
}
