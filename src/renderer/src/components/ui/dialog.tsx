import { AlertDialog, Dialog as D } from 'radix-ui';
import { Trash2, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

const overlay = 'fixed inset-0 z-40 bg-black/40 backdrop-blur-[1px] data-[state=open]:animate-in';
const panel =
  'fixed top-1/2 left-1/2 z-50 flex max-h-[88vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-border bg-surface shadow-2xl outline-none';

export const Dialog = D.Root;
export const DialogTrigger = D.Trigger;
export const DialogClose = D.Close;

export function DialogContent({
  title,
  description,
  children,
  className,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}) {
  return (
    <D.Portal>
      <D.Overlay className={overlay} />
      <D.Content className={cn(panel, 'max-w-md', className)} aria-describedby={description ? undefined : undefined}>
        <div className="flex items-start justify-between gap-4 border-b border-border px-5 py-4">
          <div>
            <D.Title className="text-[15px] font-semibold text-fg">{title}</D.Title>
            {description ? (
              <D.Description className="mt-1 text-[13px] text-fg-muted">{description}</D.Description>
            ) : (
              <D.Description className="sr-only">{title}</D.Description>
            )}
          </div>
          <D.Close asChild>
            <Button variant="ghost" size="icon-sm" aria-label="Close">
              <X />
            </Button>
          </D.Close>
        </div>
        <div className="overflow-y-auto px-5 py-4">{children}</div>
        {footer && <div className="flex justify-end gap-2 border-t border-border px-5 py-3">{footer}</div>}
      </D.Content>
    </D.Portal>
  );
}

/** "Are you sure?" before something destructive. `onConfirm` may be async; the dialog closes when it resolves. */
/** A confirmation before a destructive action; `deleteLabel` gives the list rows' standard trash button. */
export function ConfirmDialog({
  trigger,
  deleteLabel,
  title,
  description,
  confirmLabel = 'Delete',
  onConfirm,
}: {
  trigger?: ReactNode;
  /** Accessible name of the default trigger, a small trash button (used when `trigger` is not given). */
  deleteLabel?: string;
  title: string;
  description: ReactNode;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown> | void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        {trigger ?? (
          <Button variant="ghost" size="icon-sm" aria-label={deleteLabel}>
            <Trash2 />
          </Button>
        )}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlay} />
        <AlertDialog.Content className={cn(panel, 'max-w-sm p-5')}>
          <AlertDialog.Title className="text-[15px] font-semibold text-fg">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-[13px] text-fg-muted">{description}</AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialog.Cancel>
            <Button
              variant="danger"
              loading={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                  setOpen(false);
                } catch {
                  // The mutation toasts its own failure; keep the dialog so the user can retry or cancel.
                } finally {
                  setBusy(false);
                }
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
