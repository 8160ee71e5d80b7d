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
