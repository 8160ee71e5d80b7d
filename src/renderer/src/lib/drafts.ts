/**
 * What the agent typed in a conversation's composer, kept per conversation so nothing typed is lost (offline,
 * a switch to another conversation, a restart): in the desktop app by main (`drafts.get` / `drafts.set`), on the
 * web in localStorage.
 */
import { desktopCall, getDesktop } from './desktop';

const storageKey = (conversationId: string) => `parley.draft.${conversationId}`;

export async function loadDraft(conversationId: string): Promise<string> {
  if (getDesktop()) return (await desktopCall('drafts.get', { conversationId })).text;
  try {
    return localStorage.getItem(storageKey(conversationId)) ?? '';
  } catch {
    return '';
  }
}

export async function saveDraft(conversationId: string, text: string): Promise<void> {
  if (getDesktop()) {
    await desktopCall('drafts.set', { conversationId, text });
    return;
  }
  try {
    if (text) localStorage.setItem(storageKey(conversationId), text);
    else localStorage.removeItem(storageKey(conversationId));
  } catch {
    // Storage full or disabled: the draft lives as long as the page.
  }
}

/** Saves at most every `ms` while the agent types, and the last text at once on `flush`. */
export function draftSaver(conversationId: string, ms = 400) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: string | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === null) return;
    const text = pending;
    pending = null;
    void saveDraft(conversationId, text).catch((err) => console.warn('[drafts] not saved', err));
  };
  return {
    save(text: string) {
      pending = text;
      if (!timer) timer = setTimeout(flush, ms);
    },
    flush,
  };
}
