// The filters of the cache's list reads: a Live Chat tab as SQL, and what the user typed as an FTS5 query.

export type LiveChatTab = 'me' | 'assigned' | 'open' | 'closed';

export function tabWhere(tab: LiveChatTab): string {
  switch (tab) {
    case 'me':
      return 'is_active = 1 AND assignee_member_id = @me';
    case 'assigned':
      return 'is_active = 1 AND (assignee_member_id IS NOT NULL OR assignee_bot_id IS NOT NULL)';
    case 'open':
      return 'is_active = 1';
    case 'closed':
      return 'is_active = 0';
  }
}

/**
 * FTS5 query for what the user typed: every word must match the start of a word anywhere in the indexed
 * fields ("ada" finds "Lovelace, Ada"; "love ada" too). Words are quoted, so FTS syntax typed by the user is
 * plain text. A phone number typed with spaces or dashes ("+1 415-555 0123") is one word, as it is indexed.
 * null when nothing searchable is left.
 */
export function ftsQuery(search: string | undefined): string | null {
  const typed = (search ?? '').normalize('NFKC');
  const phoneLike = /^[\s+()./-]*\d[\d\s()./-]*$/.test(typed);
  const words = (phoneLike ? [typed.replace(/\D/g, '')] : typed.match(/[\p{L}\p{N}]+/gu)) ?? [];
  if (words.length === 0) return null;
  return words.slice(0, 16).map((w) => `"${w}"*`).join(' ');
}
