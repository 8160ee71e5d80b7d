import { Handle, Position } from '@xyflow/react';
import { AlertCircle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { type CanvasProblem, useNodeProblems } from './context';

const tones = {
  green: 'bg-accent-soft text-accent-text',
  blue: 'bg-info-soft text-info-text',
  amber: 'bg-warning-soft text-warning-text',
  neutral: 'bg-muted text-fg-muted',
} as const;

/**
 * The card every canvas node is drawn in: a header (icon, kind, the node's label) to drag it by, then its form.
 * The body carries `nodrag nowheel`, so typing, selecting text and scrolling in a field never move the canvas.
 * Feature node components wrap their form in it and are memoised (`memo(function XNode(props) …)`).
 * Drawn in full at every zoom: the campaign canvases it serves have a handful of steps, whose forms stay usable.
 */
export function CanvasNode({
  id,
  selected,
  icon: Icon,
  kind,
  label,
  tone = 'neutral',
  target = true,
  source = true,
  width = 'w-72',
  formShows,
  children,
}: {
  id: string;
  selected?: boolean;
  icon: LucideIcon;
  /** What kind of step this is ("Send template"). */
  kind: string;
  /** The node's own label (data.label), when it has one. */
  label?: string;
  tone?: keyof typeof tones;
  /** Draw the incoming / outgoing connection point (a trigger has no incoming one). */
  target?: boolean;
  source?: boolean;
  width?: string;
  /** Problems the form already shows beside its field (not repeated in the card's footer). */
  formShows?: (problem: CanvasProblem) => boolean;
  children?: ReactNode;
}) {
  const problems = useNodeProblems(id);
  const footer = formShows ? problems.filter((p) => !formShows(p)) : problems;
  return (
    <div
      className={cn(
        'rounded-xl border bg-surface text-fg shadow-sm transition-shadow [contain:layout_style]',
        width,
        problems.length ? 'border-danger' : 'border-border-strong',
        selected && 'ring-2 ring-accent ring-offset-1 ring-offset-bg',
      )}
      data-node-card={id}
    >
      {target && <Handle type="target" position={Position.Top} className="!h-2.5 !w-2.5 !border-2 !border-surface !bg-fg-subtle" />}
      <div className="flex items-center gap-2 border-b border-border px-3 py-2">
        <span className={cn('flex h-6 w-6 shrink-0 items-center justify-center rounded-md', tones[tone])} aria-hidden>
          <Icon className="h-3.5 w-3.5" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="text-[11px] font-medium uppercase tracking-wide text-fg-subtle">{kind}</div>
          {label && <div className="truncate text-[13px] font-semibold">{label}</div>}
        </div>
        {problems.length > 0 && (
          <span className="flex items-center gap-1 text-[11px] font-medium text-danger" title={problems.map((p) => p.message).join('\n')}>
            <AlertCircle className="h-3.5 w-3.5" aria-hidden />
            {problems.length}
          </span>
        )}
      </div>
      {children && <div className="nodrag nowheel flex cursor-default flex-col gap-2.5 px-3 py-3" data-node-form={id}>{children}</div>}
      {footer.length > 0 && (
        <ul className="flex flex-col gap-0.5 border-t border-border px-3 py-2 text-[11px] text-danger">
          {footer.map((p, i) => (
            <li key={i}>{p.message}</li>
          ))}
        </ul>
      )}
      {source && <Handle type="source" position={Position.Bottom} className="!h-2.5 !w-2.5 !border-2 !border-surface !bg-accent" />}
    </div>
  );
}
