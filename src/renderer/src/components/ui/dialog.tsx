import { AlertDialog, Dialog as D } from 'radix-ui';
import { Trash2, X } from 'lucide-react';
import { type FormEventHandler, type ReactNode, useId, useState } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

const overlay = 'fixed inset-0 z-40 bg-black/40 backdrop-blur-[1px] data-[state=open]:animate-in';
const panel =
  'fixed top-1/2 left-1/2 z-50 flex max-h-[88vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-border bg-surface shadow-2xl outline-none';

export const Dialog = D.Root;

/**
 * Where focus goes when a dialog closes: back to the control that opened it (Radix's default) while that control
 * is still on the page and focusable; otherwise (it was a menu item, a row that re-rendered, a button the result
 * replaced) to the screen's main region, never to the page body.
 */
export function returnFocusAfterDialog(opener: Element | null, event: Event) {
  const usable = opener instanceof HTMLElement && opener.isConnected && !opener.closest('[inert],[aria-hidden="true"]') && !(opener as HTMLButtonElement).disabled;
  event.preventDefault();
  const target = usable ? opener : (document.getElementById('main') ?? document.querySelector<HTMLElement>('main'));
  target?.focus({ preventScroll: true });
}

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
  // The element focused when the dialog opened (captured on the first render, before Radix moves focus).
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  return (
    <D.Portal>
      <D.Overlay className={overlay} />
      <D.Content className={cn(panel, 'max-w-md', className)} onCloseAutoFocus={(e) => returnFocusAfterDialog(opener, e)}>
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

/**
 * The shell five screens repeat: a dialog around one form, with Cancel and a submit button in the footer
 * (`footerStart` goes on the footer's left, e.g. a live count). `onSubmit` is the form's handler
 * (react-hook-form's `handleSubmit(...)`).
 */
export function FormDialog({
  title,
  description,
  onClose,
  onSubmit,
  submitLabel,
  pending,
  className,
  formClassName,
  footerStart,
  submitDisabledReason,
  children,
}: {
  title: string;
  description?: ReactNode;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  pending?: boolean;
  className?: string;
  formClassName?: string;
  footerStart?: ReactNode;
  /** When set, the submit button is disabled and this says why (e.g. offline in the desktop app). */
  submitDisabledReason?: string | null;
  children: ReactNode;
}) {
  const formId = useId();
  const buttons = (
    <div className="flex gap-2">
      <Button variant="secondary" onClick={onClose}>
        Cancel
      </Button>
      <Button type="submit" form={formId} loading={pending} disabled={!!submitDisabledReason} title={submitDisabledReason ?? undefined}>
        {submitLabel}
      </Button>
    </div>
  );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={title}
        description={description}
        className={className}
        footer={footerStart ? <div className="flex w-full items-center justify-between gap-3">{footerStart}{buttons}</div> : buttons}
      >
        <form id={formId} noValidate className={cn('flex flex-col gap-4', formClassName)} onSubmit={onSubmit}>
          {children}
        </form>
      </DialogContent>
    </Dialog>
  );
}

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
  const [opener, setOpener] = useState<Element | null>(null);
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (next) setOpener(document.activeElement);
        setOpen(next);
      }}
    >
      <AlertDialog.Trigger asChild>
        {trigger ?? (
          <Button variant="ghost" size="icon-sm" aria-label={deleteLabel}>
            <Trash2 />
          </Button>
        )}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlay} />
        <AlertDialog.Content className={cn(panel, 'max-w-sm p-5')} onCloseAutoFocus={(e) => returnFocusAfterDialog(opener, e)}>
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
