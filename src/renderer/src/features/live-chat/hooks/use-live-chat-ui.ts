/** Live chat's client state that outlives a screen: the list's search text and scroll positions. */
import { create } from 'zustand';

interface LiveChatUi {
  search: string;
  setSearch: (search: string) => void;
}

export const useLiveChatUi = create<LiveChatUi>()((set) => ({
  search: '',
  setSearch: (search) => set({ search }),
}));

/** Scroll offsets of the conversation list per tab and search, restored when the list mounts again. */
export const listScrollOffsets = new Map<string, number>();

/**
 * Set when a conversation is opened from the keyboard (Enter on a list row): the conversation then takes focus
 * (its composer when it can send) instead of leaving it on a row that the new screen re-renders.
 */
export const focusRequest = { conversationId: null as string | null };
