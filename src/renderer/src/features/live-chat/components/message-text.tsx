import { Fragment, useId, useState } from 'react';

/** Messages longer than this many characters (or lines) start collapsed behind "Read more". */
export const COLLAPSE_CHARS = 700;
export const COLLAPSE_LINES = 12;

const urlPattern = /\bhttps?:\/\/[^\s<>"']+/gi;
// Punctuation that ends a sentence after a link belongs to the sentence, not the link.
const trailing = /[.,;:!?)\]}]+$/;

/** Splits text into plain runs and http(s) links (only well-formed http and https URLs become links). */
export function splitLinks(text: string): ({ text: string } | { href: string; text: string })[] {
  const parts: ({ text: string } | { href: string; text: string })[] = [];
  let at = 0;
  for (const match of text.matchAll(urlPattern)) {
    const raw = match[0].replace(trailing, '');
    const start = match.index;
    let href: string | null = null;
    try {
      const url = new URL(raw);
      href = url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch {
      href = null;
    }
    if (!href) continue;
    if (start > at) parts.push({ text: text.slice(at, start) });
    parts.push({ href, text: raw });
    at = start + raw.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/**
 * A message's text: links open in a new window (in the desktop app, the system browser: src/main/window.ts),
 * without handing this page to the site (noopener noreferrer); very long texts collapse behind "Read more".
 */
/** Marks the words of a search (as prefixes, any case) inside a plain run of text. */
export function highlightRuns(text: string, terms: readonly string[] | undefined): ({ text: string; mark?: boolean })[] {
  if (!terms || terms.length === 0) return [{ text }];
  const escaped = terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const out: { text: string; mark?: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ text: m[0], mark: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

export function MessageText({ text, highlight }: { text: string; highlight?: readonly string[] }) {
  const long = text.length > COLLAPSE_CHARS || text.split('\n').length > COLLAPSE_LINES;
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const collapsed = long && !expanded && !(highlight && highlight.length > 0);
  return (
    <>
      <p id={id} className={collapsed ? 'emoji-text line-clamp-[12] break-words whitespace-pre-wrap' : 'emoji-text break-words whitespace-pre-wrap'}>
        {splitLinks(text).map((part, i) =>
          'href' in part ? (
            <a
              key={i}
              href={part.href}
              target="_blank"
              rel="noopener noreferrer"
              className="text-info-text underline underline-offset-2 hover:no-underline"
            >
              {part.text}
            </a>
          ) : (
            <Fragment key={i}>
              {highlightRuns(part.text, highlight).map((r, j) =>
                r.mark ? (
                  <mark key={j} className="rounded-sm bg-warning-soft px-0.5 text-fg ring-1 ring-warning-text/40">
                    {r.text}
                  </mark>
                ) : (
                  <Fragment key={j}>{r.text}</Fragment>
                ),
              )}
            </Fragment>
          ),
        )}
      </p>
      {long && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((e) => !e)}
          className="mt-1 cursor-pointer text-[13px] font-medium text-info-text hover:underline"
        >
          {expanded ? 'Show less' : 'Read more'}
        </button>
      )}
    </>
  );
}
