import { Eye, PenLine } from 'lucide-react';
import type { Present } from '../hooks/use-presence';
import type { NameLookup } from './timeline-rows';

const list = (names: string[]) => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** "Grace is typing…" / "Alan is viewing": collision warning above the messages, announced politely. */
export function PresenceBar({ present, names }: { present: Present[]; names: NameLookup }) {
  const nameOf = (id: string) => names.member(id) ?? 'A teammate';
  const typing = present.filter((p) => p.state === 'typing').map((p) => nameOf(p.memberId));
  const viewing = present.filter((p) => p.state === 'viewing').map((p) => nameOf(p.memberId));
  return (
    <div role="status" aria-live="polite" data-testid="presence" className={present.length ? 'flex shrink-0 items-center gap-3 border-b border-border bg-warning-soft px-4 py-1 text-[12px] text-warning-text' : 'sr-only'}>
      {typing.length > 0 && (
        <span className="inline-flex items-center gap-1">
          <PenLine className="size-3.5" aria-hidden />
          {list(typing)} {typing.length === 1 ? 'is' : 'are'} typing…
        </span>
      )}
      {viewing.length > 0 && (
        <span className="inline-flex items-center gap-1">
          <Eye className="size-3.5" aria-hidden />
          {list(viewing)} {viewing.length === 1 ? 'is' : 'are'} viewing
        </span>
      )}
    </div>
  );
}
