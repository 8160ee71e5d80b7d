/** Live chat's client state that outlives a screen: the list's search text and scroll positions. */
import { create } from 'zustand';

interface LiveChatUi {
  search: string;
  setSearch: (search: string) => void;
  /**
   * The contact panel, kept across conversations. Wide screens (>= 1400 px) start with it open. Below 1280 px
   * the open panel takes the conversation list's place (the list comes back when it closes), so it never
   * covers the conversation.
   */
  panelOpen: boolean;
  setPanelOpen: (open: boolean) => void;
}

export const useLiveChatUi = create<LiveChatUi>()((set) => ({
  search: '',
  setSearch: (search) => set({ search }),
  panelOpen: typeof window === 'undefined' || window.innerWidth >= 1400,
  setPanelOpen: (panelOpen) => set({ panelOpen }),
}));

/** Scroll offsets of the conversation list per tab and search, restored when the list mounts again. */
export const listScrollOffsets = new Map<string, number>();

/**
 * Set when a conversation is opened from the keyboard (Enter on a list row): the conversation then takes focus
 * (its composer when it can send) instead of leaving it on a row that the new screen re-renders.
 */
export const focusRequest = { conversationId: null as string | null };

/** What the open conversation lends the keyboard shortcuts (set while a conversation view is mounted). */
export const conversationCommands = { focusComposer: null as (() => void) | null };
