/**
 * The tab a sign-in lands on. The landing address stays the spec's /live-chat?tab=closed, but Closed is often
 * empty at the start of a day: a landing opens the tab the member last chose (remembered per member on this
 * device), and with nothing remembered (the first sign-in) the first tab holding conversations, in the order
 * an agent works them: Me, then Assigned, then Open. With all three empty it stays on Closed.
 */
import type { LiveChatTab } from './tabs';
import { liveChatTabs } from './tabs';

const storageKey = (memberId: string) => `parley-live-chat-tab:${memberId}`;
const workOrder: LiveChatTab[] = ['me', 'assigned', 'open'];

export function rememberTab(memberId: string, tab: LiveChatTab): void {
  try {
    globalThis.localStorage?.setItem(storageKey(memberId), tab);
  } catch {
    // Storage full or refused: the next landing picks by the counts instead.
  }
}

function rememberedTab(memberId: string): LiveChatTab | null {
  let value: string | null = null;
  try {
    value = globalThis.localStorage?.getItem(storageKey(memberId)) ?? null;
  } catch {
    return null;
  }
  return (liveChatTabs as readonly string[]).includes(value ?? '') ? (value as LiveChatTab) : null;
}

/** The landing tab: the remembered one, else the first of Me, Assigned, Open with conversations, else Closed. */
export function landingTab(memberId: string, counts: Record<LiveChatTab, number>): LiveChatTab {
  return rememberedTab(memberId) ?? workOrder.find((t) => counts[t] > 0) ?? 'closed';
}
