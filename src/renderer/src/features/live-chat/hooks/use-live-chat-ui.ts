/** Live chat's client state that outlives a screen: the list's search text and scroll positions. */
import { create } from 'zustand';

interface LiveChatUi {
  search: string;
  setSearch: (search: string) => void;
  /**
   * The contact panel, kept across conversations once the agent opens or hides it (null: not yet, then wide
   * screens, >= 1400 px, show it). Below 1280 px
   * the open panel takes the conversation list's place (the list comes back when it closes), so it never
   * covers the conversation.
   */
  panelOpen: boolean | null;
  setPanelOpen: (open: boolean) => void;
  /** The list's order: newest activity first, or only the waiting ones, longest waiting first. */
  sort: 'recent' | 'waiting';
  setSort: (sort: 'recent' | 'waiting') => void;
  /** Workspace message search: the dialog's words while it is open, null when closed. */
  messageSearch: string | null;
  setMessageSearch: (q: string | null) => void;
  /** A message to bring into view (and mark) once its conversation shows: a workspace search result. */
  jumpTo: JumpRequest | null;
  setJumpTo: (jump: JumpRequest | null) => void;
}

export interface JumpRequest {
  conversationId: string;
  messageId: string;
  createdAt: string;
  /** The searched words, marked in the messages. */
  terms: string[];
}

export const useLiveChatUi = create<LiveChatUi>()((set) => ({
  search: '',
  setSearch: (search) => set({ search }),
  panelOpen: null,
  setPanelOpen: (panelOpen) => set({ panelOpen }),
  sort: 'recent',
  setSort: (sort) => set({ sort }),
  messageSearch: null,
  setMessageSearch: (messageSearch) => set({ messageSearch }),
  jumpTo: null,
  setJumpTo: (jumpTo) => set({ jumpTo }),
}));

/** Opens the workspace message search (the quick switcher's "Search messages for …"). */
export function openMessageSearch(q = '') {
  useLiveChatUi.getState().setMessageSearch(q);
}

/** Scroll offsets of the conversation list per tab and search, restored when the list mounts again. */
export const listScrollOffsets = new Map<string, number>();

/**
 * Set when a conversation is opened from the keyboard (Enter on a list row): the conversation then takes focus
 * (its composer when it can send) instead of leaving it on a row that the new screen re-renders.
 */
export const focusRequest = { conversationId: null as string | null };

/** What the open conversation lends the keyboard shortcuts (set while a conversation view is mounted). */
export const conversationCommands = { focusComposer: null as (() => void) | null };

/** Whether the contact panel shows: the agent's choice, else open on wide screens. */
export function usePanelOpen(): boolean {
  const chosen = useLiveChatUi((s) => s.panelOpen);
  return chosen ?? (typeof window === 'undefined' || window.innerWidth >= 1400);
}
