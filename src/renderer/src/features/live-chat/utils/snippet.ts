/**
 * A search hit's snippet: the part of a long message around its first matching word (as the search matched:
 * a word starting with one of the terms, any case), with an ellipsis where text was cut.
 */
export function snippetAround(text: string, terms: readonly string[], width = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= width) return flat;
  let first = -1;
  if (terms.length > 0) {
    const escaped = terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const m = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})`, 'iu').exec(flat);
    first = m ? m.index : -1;
  }
  if (first < 0) return `${flat.slice(0, width).trimEnd()}…`;
  // Some words of context before the match, and the rest of the width after it.
  let start = Math.max(0, first - Math.floor(width / 3));
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < first) start = space + 1;
  }
  const end = Math.min(flat.length, start + width);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}
