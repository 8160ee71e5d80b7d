/**
 * What the composer's text asks for: `/word` at the start opens the canned replies, `@name` before the caret
 * the members (in a note). Pure functions, so the rules are tested without a DOM.
 */
import type { CannedReply } from '@shared/schemas/agent-tools';

/** `/ship` (the whole text so far, no space yet) -> 'ship'; anything else -> null. */
export function cannedQuery(text: string): string | null {
  const m = /^\/([^\s/]*)$/.exec(text);
  return m ? m[1] : null;
}

/** The `@name` being typed just before the caret: its query and where the `@` is. */
export function mentionQuery(text: string, caret: number): { query: string; at: number } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([\p{L}\p{N}_.-]*(?: [\p{L}\p{N}_.-]*)?)$/u.exec(before);
  if (!m) return null;
  return { query: m[2], at: before.length - m[2].length - 1 };
}

export function matchCannedReplies(replies: readonly CannedReply[], query: string): CannedReply[] {
  const q = query.toLowerCase();
  const starts = replies.filter((r) => r.shortcut.toLowerCase().startsWith(q));
  const contains = replies.filter((r) => !r.shortcut.toLowerCase().startsWith(q) && (r.shortcut.toLowerCase().includes(q) || r.text.toLowerCase().includes(q)));
  return [...starts, ...contains].slice(0, 20);
}

export function matchMembers<M extends { id: string; name: string }>(members: readonly M[], query: string): M[] {
  const q = query.toLowerCase().trim();
  return members.filter((m) => m.name.toLowerCase().split(/\s+/).some((w) => w.startsWith(q)) || m.name.toLowerCase().startsWith(q)).slice(0, 8);
}
