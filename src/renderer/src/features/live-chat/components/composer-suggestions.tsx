/**
 * The list under the composer's text for `/` (canned replies) and `@` (members): the textarea keeps focus and
 * owns the keys (combobox pattern: ArrowUp/ArrowDown move, Enter or Tab picks, Escape closes), the list shows
 * which option is active (aria-activedescendant), and a click picks too.
 */
import { cn } from '../../../lib/cn';

export interface Suggestion {
  id: string;
  label: string;
  detail?: string;
  badge?: string;
}

export const suggestionOptionId = (listId: string, index: number) => `${listId}-option-${index}`;

export function SuggestionList({
  id,
  label,
  items,
  active,
  empty,
  onPick,
  onHover,
}: {
  id: string;
  label: string;
  items: Suggestion[];
  active: number;
  empty: string;
  onPick: (index: number) => void;
  onHover: (index: number) => void;
}) {
  return (
    <div className="absolute right-0 bottom-full left-0 z-20 mb-2 overflow-hidden rounded-lg border border-border bg-surface shadow-lg">
      <p className="border-b border-border px-3 py-1.5 text-[11px] font-medium text-fg-muted">
        {label} · ↑↓ to choose, Enter to insert, Esc to close
      </p>
      <ul id={id} role="listbox" aria-label={label} className="max-h-64 overflow-y-auto py-1">
        {items.length === 0 && <li className="px-3 py-2 text-[13px] text-fg-muted">{empty}</li>}
        {items.map((s, i) => (
          <li
            key={s.id}
            id={suggestionOptionId(id, i)}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => {
              e.preventDefault(); // keep focus in the textarea
              onPick(i);
            }}
            onMouseMove={() => onHover(i)}
            className={cn('flex cursor-pointer items-baseline gap-2 px-3 py-1.5 text-[13px]', i === active ? 'bg-accent-soft text-fg' : 'text-fg')}
          >
            <span className="shrink-0 font-medium">{s.label}</span>
            {s.badge && <span className="shrink-0 rounded bg-subtle px-1.5 text-[10px] font-medium text-fg-muted uppercase">{s.badge}</span>}
            {s.detail && <span className="min-w-0 truncate text-fg-muted">{s.detail}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
