import { Lock } from 'lucide-react';
import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import { useOfflineReason } from '../../../lib/connectivity';
import type { ComposerHandle, ComposerProps, Mode } from './composer-types';
import { WindowClosed } from './composer-window-closed';
import { TextComposer } from './text-composer';

export type { ComposerHandle } from './composer-types';

/**
 * Writes to the customer, or a note for the team. Inside WhatsApp's 24-hour customer-service window: text,
 * files (picker, paste, drop) with a caption, emoji, canned replies (`/`). Outside it WhatsApp accepts only an
 * approved template, so the composer says so and offers one. A note (never sent to WhatsApp) can be written any
 * time; `@name` mentions a member.
 */
export const Composer = forwardRef<ComposerHandle, ComposerProps>(function Composer(props, handle) {
  const { conversationId, workspaceId, window: w, onSent } = props;
  const [mode, setMode] = useState<Mode>('reply');
  const box = useRef<HTMLDivElement>(null);
  const inner = useRef<ComposerHandle>(null);
  useImperativeHandle(handle, () => ({
    focus: () => (inner.current ? inner.current.focus() : box.current?.querySelector<HTMLElement>('[data-template-sender] :is(button, [role="combobox"], input)')?.focus()),
  }));
  const offline = useOfflineReason();
  const showText = mode === 'note' || w.open;

  return (
    <div ref={box} className="border-t border-border bg-surface">
      <div className="flex items-center gap-1 px-4 pt-2">
        <div role="tablist" aria-label="Write" className="flex gap-1">
        {(['reply', 'note'] as const).map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            aria-selected={mode === m}
            onClick={() => {
              setMode(m);
              requestAnimationFrame(() => inner.current?.focus());
            }}
            className={cn(
              'inline-flex cursor-pointer items-center gap-1.5 rounded-md px-2.5 py-1 text-[12px] font-medium',
              mode === m ? (m === 'note' ? 'bg-warning-soft text-warning-text' : 'bg-accent-soft text-fg') : 'text-fg-muted hover:bg-subtle',
            )}
          >
            {m === 'note' && <Lock className="size-3" aria-hidden />}
            {m === 'reply' ? 'Reply' : 'Internal note'}
          </button>
        ))}
        </div>
        {props.tools && <div className="ml-auto flex items-center">{props.tools}</div>}
      </div>
      {showText ? (
        <TextComposer key={`${conversationId}:${mode}`} ref={inner} {...props} mode={mode} offline={offline} />
      ) : (
        <WindowClosed conversationId={conversationId} workspaceId={workspaceId} closesAt={w.closesAt} offline={offline} onSent={onSent} />
      )}
    </div>
  );
});
