/**
 * Search inside one conversation: Ctrl/Cmd+F opens it, a match older than what is loaded pages back until it is
 * there, and a workspace search result chosen for this conversation marks its words and comes into view.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { Message } from '@shared/schemas/entities';
import type { ComposerHandle } from '../components/composer-types';
import type { SearchState } from '../components/conversation-search';
import type { MessageTimelineHandle } from '../components/message-timeline';
import { useLiveChatUi } from './use-live-chat-ui';

interface SearchOptions {
  conversationId: string;
  /** The loaded messages, oldest first. */
  all: Message[];
  /** Changes whenever the timeline's rows do (a jump waits for its message's row). */
  items: unknown;
  loadOlder: (beforeId: string) => Promise<Message[] | null>;
  timeline: RefObject<MessageTimelineHandle | null>;
  composer: RefObject<ComposerHandle | null>;
}

export function useSearchInConversation({ conversationId, all, items, loadOlder, timeline, composer }: SearchOptions) {
  const [searching, setSearching] = useState(false);
  const [search, setSearch] = useState<SearchState>({ terms: [], matchId: null });
  const allRef = useRef(all);
  allRef.current = all;
  const [jumpTo, setJumpTo] = useState<string | null>(null);
  const onJump = useCallback(
    async (match: { id: string; createdAt: string }) => {
      setJumpTo(match.id);
      let oldest = allRef.current[0];
      while (oldest && match.createdAt < oldest.createdAt) {
        const page = await loadOlder(oldest.id);
        if (!page || page.length === 0) break;
        oldest = page[page.length - 1];
      }
    },
    [loadOlder],
  );
  const requested = useLiveChatUi((s) => (s.jumpTo?.conversationId === conversationId ? s.jumpTo : null));
  useEffect(() => {
    if (!requested) return;
    useLiveChatUi.getState().setJumpTo(null);
    setSearch({ terms: requested.terms, matchId: requested.messageId });
    void onJump({ id: requested.messageId, createdAt: requested.createdAt });
  }, [requested, onJump]);
  useEffect(() => {
    if (!jumpTo || !all.some((m) => m.id === jumpTo)) return;
    const frame = requestAnimationFrame(() => {
      if (timeline.current?.scrollToMessage(jumpTo)) setJumpTo(null);
    });
    return () => cancelAnimationFrame(frame);
  }, [jumpTo, all, items, timeline]);
  const closeSearch = useCallback(() => {
    setSearching(false);
    setSearch({ terms: [], matchId: null });
    requestAnimationFrame(() => composer.current?.focus());
  }, [composer]);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        setSearching(true);
        requestAnimationFrame(() => document.getElementById(`conversation-search-${conversationId}`)?.focus());
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [conversationId]);

  return { searching, setSearching, search, setSearch, onJump, closeSearch };
}
