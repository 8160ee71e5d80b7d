import type { Node } from '@xyflow/react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

/** The drag-and-drop payload type of a palette item (its node type). */
export const PALETTE_MIME = 'application/x-parley-node';

/** A kind of node the user can add. */
export interface PaletteEntry<N extends Node> {
  type: N['type'] & string;
  label: string;
  description?: string;
  icon: LucideIcon;
  /** A fresh node of this kind without id and position (the frame sets those). */
  create: () => Omit<N, 'id' | 'position'>;
  /** Why it cannot be added now (one trigger per campaign...), or null. */
  disabledReason?: (nodes: N[]) => string | null;
  /** false: a new node is not joined after the selected one (a trigger starts a chain). Default true. */
  connectable?: boolean;
}

/**
 * "Add a step": each entry is a button (click or Enter adds the node after the selected one and moves the
 * keyboard into its form) and can be dragged onto the canvas to place it.
 */
export function Palette<N extends Node>({
  entries,
  nodes,
  onAdd,
}: {
  entries: PaletteEntry<N>[];
  nodes: N[];
  onAdd: (entry: PaletteEntry<N>) => void;
}) {
  return (
    <section aria-labelledby="canvas-palette" className="border-b border-border p-3">
      <h2 id="canvas-palette" className="mb-2 text-[11px] font-semibold uppercase tracking-wide text-fg-subtle">
        Add a step
      </h2>
      <ul className="flex flex-col gap-1">
        {entries.map((entry) => {
          const reason = entry.disabledReason?.(nodes) ?? null;
          const Icon = entry.icon;
          return (
            <li key={entry.type}>
              <button
                type="button"
                data-palette-entry
                draggable={!reason}
                disabled={!!reason}
                title={reason ?? entry.description}
                onDragStart={(e) => {
                  e.dataTransfer.setData(PALETTE_MIME, entry.type);
                  e.dataTransfer.effectAllowed = 'move';
                }}
                onClick={() => onAdd(entry)}
                className={cn(
                  'flex w-full items-center gap-2 rounded-md border border-border bg-surface px-2 py-1.5 text-left text-[13px] shadow-xs',
                  'hover:border-accent hover:bg-subtle focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/50',
                  'disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:border-border disabled:hover:bg-surface',
                  !reason && 'cursor-grab',
                )}
              >
                <Icon className="h-4 w-4 shrink-0 text-fg-muted" aria-hidden />
                <span className="min-w-0 flex-1">
                  <span className="block font-medium">{entry.label}</span>
                  {reason && <span className="block text-[11px] text-fg-subtle">{reason}</span>}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
