import { zodResolver } from '@hookform/resolvers/zod';
import { Clock, SendHorizontal } from 'lucide-react';
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { limits } from '@shared/limits';
import { CreateMessageBody } from '@shared/schemas/requests';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { useOfflineReason } from '../../../lib/connectivity';
import { draftSaver, loadDraft } from '../../../lib/drafts';
import { useCreateMessage } from '../api/create-message';
import { formatFull } from '../utils/format';
import type { WindowState } from '../utils/window';
import { TemplateSender } from './template-sender';

const TextForm = z.object({ text: CreateMessageBody.shape.text });
type TextForm = z.infer<typeof TextForm>;

/** The counter shows once a message gets this close to WhatsApp's limit. */
const COUNTER_FROM = limits.whatsappTextMax - 500;
const TEXTAREA_MAX_HEIGHT = 160;

/** Grows the textarea with its text up to a limit; with no text it is back to one line. */
function fitHeight(el: HTMLTextAreaElement) {
  el.style.height = 'auto';
  if (el.value) el.style.height = `${Math.min(el.scrollHeight, TEXTAREA_MAX_HEIGHT)}px`;
}

export interface ComposerHandle {
  /** Puts the cursor in the message box (or the template picker outside the window). */
  focus: () => void;
}

function relative(closesAt: Date, now = new Date()): string {
  const mins = Math.round((closesAt.getTime() - now.getTime()) / 60_000);
  if (mins < 60) return `${mins} min`;
  return `${Math.floor(mins / 60)} h ${mins % 60} min`;
}

/**
 * Writes to the customer. Inside WhatsApp's 24-hour customer-service window: free text. Outside it (the
 * customer's last message is older than 24 hours, or they never wrote) WhatsApp accepts only an approved
 * template, so the composer says so and offers one with its parameters.
 */
export const Composer = forwardRef<ComposerHandle, {
  conversationId: string;
  workspaceId: string;
  window: WindowState;
  onSent?: () => void;
}>(function Composer({ conversationId, workspaceId, window: w, onSent }, handle) {
  const send = useCreateMessage(conversationId);
  const form = useForm<TextForm>({ resolver: zodResolver(TextForm), defaultValues: { text: '' } });
  const box = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  useImperativeHandle(handle, () => ({
    focus: () => (textarea.current ?? box.current?.querySelector<HTMLElement>('button, [role="combobox"], input'))?.focus(),
  }));
  const length = form.watch('text').length;
  // Emptied (sent, or cleared): back to one line, as the height was set by hand while the text grew.
  useEffect(() => {
    if (length === 0 && textarea.current) fitHeight(textarea.current);
  }, [length]);
  const offline = useOfflineReason();
  const draft = useMemo(() => draftSaver(conversationId), [conversationId]);
  // The conversation's draft comes back (unless the agent has started typing); every change is kept.
  useEffect(() => {
    let live = true;
    void loadDraft(conversationId)
      .then((text) => {
        if (live && text && !form.getValues('text')) form.setValue('text', text);
      })
      .catch(() => undefined);
    const sub = form.watch(({ text }) => draft.save(text ?? ''));
    return () => {
      live = false;
      sub.unsubscribe();
      draft.flush();
    };
  }, [conversationId, draft, form]);

  if (!w.open && offline) {
    return (
      <p role="status" className="border-t border-border bg-surface px-4 py-3 text-[13px] text-fg-muted">
        {offline}. Templates can be sent once you are back online.
      </p>
    );
  }

  if (!w.open) {
    return (
      <div className="border-t border-border bg-surface" ref={box}>
        <div role="status" className="flex items-start gap-2.5 border-b border-border bg-warning-soft px-4 py-2.5 text-[13px] text-warning-text">
          <Clock className="mt-0.5 size-4 shrink-0" aria-hidden />
          <p>
            {w.closesAt ? (
              <>
                The 24-hour window closed on {formatFull(w.closesAt.toISOString())}: the customer last wrote more than 24 hours ago.
              </>
            ) : (
              <>This customer has not written to you yet, so no 24-hour window is open.</>
            )}{' '}
            WhatsApp only allows an approved template until they reply.
          </p>
        </div>
        <TemplateSender conversationId={conversationId} workspaceId={workspaceId} onSent={onSent} />
      </div>
    );
  }

  const submit = form.handleSubmit(async ({ text }) => {
    if (offline) return;
    try {
      await send.mutateAsync(text);
      form.reset({ text: '' });
      draft.save('');
      draft.flush();
      onSent?.();
    } catch {
      // The mutation cache toasts the failure (`status: message`); the text stays for another try.
    }
  });
  const error = form.formState.errors.text?.message;
  const { ref: registerRef, ...textField } = form.register('text');
  const over = length > limits.whatsappTextMax;

  return (
    <form onSubmit={submit} className="border-t border-border bg-surface px-4 py-3" aria-label="Reply">
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <label htmlFor="composer-text" className="sr-only">
            Message
          </label>
          <textarea
            id="composer-text"
            rows={1}
            placeholder="Type a message"
            aria-invalid={error ? true : undefined}
            aria-describedby={length >= COUNTER_FROM ? 'composer-hint composer-count' : 'composer-hint'}
            className={cn(
              'block max-h-40 min-h-10 w-full resize-none rounded-lg border border-border-strong bg-bg px-3 py-2.5 text-[14px] leading-snug text-fg',
              'placeholder:text-fg-subtle focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none',
            )}
            {...textField}
            ref={(el) => {
              registerRef(el);
              textarea.current = el;
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void submit();
              }
            }}
            onInput={(e) => fitHeight(e.currentTarget)}
          />
        </div>
        <span title={offline ?? undefined} className="inline-flex">
          <Button type="submit" size="icon" className="size-10 rounded-full" loading={send.isPending} disabled={!!offline} aria-label="Send">
            {!send.isPending && <SendHorizontal />}
          </Button>
        </span>
      </div>
      <div className="mt-1.5 flex items-start gap-3">
      <p id="composer-hint" className="min-w-0 flex-1 text-[11px] text-fg-subtle">
        {error ? (
          <span role="alert" className="text-danger">
            {error}
          </span>
        ) : offline ? (
          <span data-testid="composer-offline">{offline}. What you type is kept as a draft.</span>
        ) : (
          <>
            Enter to send, Shift+Enter for a new line · window open for {w.closesAt ? relative(w.closesAt) : ''}
          </>
        )}
      </p>
      {length >= COUNTER_FROM && (
        <p id="composer-count" className={cn('shrink-0 text-[11px] tabular-nums', over ? 'font-medium text-danger' : 'text-fg-muted')}>
          {length.toLocaleString('en-US')} / {limits.whatsappTextMax.toLocaleString('en-US')}
          <span className="sr-only"> characters</span>
        </p>
      )}
      </div>
    </form>
  );
});
