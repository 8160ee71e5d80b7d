/** The unread total the document title starts with ("(3) Live chat · Parley"), set by the signed-in shell. */
import { create } from 'zustand';

export const useUnreadTitle = create<{ count: number; set: (count: number) => void }>()((set) => ({
  count: 0,
  set: (count) => set({ count }),
}));

export function withUnread(title: string, count: number): string {
  return count > 0 ? `(${count > 99 ? '99+' : count}) ${title}` : title;
}
