import { zodResolver } from '@hookform/resolvers/zod';
import { Clock, SendHorizontal } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { CreateMessageBody } from '@shared/schemas/requests';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { useCreateMessage } from '../api/create-message';
import { formatFull } from '../utils/format';
import type { WindowState } from '../utils/window';
import { TemplateSender } from './template-sender';

const TextForm = z.object({ text: CreateMessageBody.shape.text });
type TextForm = z.infer<typeof TextForm>;

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
export function Composer({
  conversationId,
  workspaceId,
  window: w,
  onSent,
}: {
  conversationId: string;
  workspaceId: string;
  window: WindowState;
  onSent?: () => void;
}) {
  const send = useCreateMessage(conversationId);
  const form = useForm<TextForm>({ resolver: zodResolver(TextForm), defaultValues: { text: '' } });

  if (!w.open) {
    return (
      <div className="border-t border-border bg-surface">
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
    try {
      await send.mutateAsync(text);
      form.reset({ text: '' });
      onSent?.();
    } catch {
      // The mutation cache toasts the failure (`status: message`); the text stays for another try.
    }
  });
  const error = form.formState.errors.text?.message;

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
            aria-describedby="composer-hint"
            className={cn(
              'block max-h-40 min-h-10 w-full resize-none rounded-lg border border-border-strong bg-bg px-3 py-2.5 text-[14px] leading-snug text-fg',
              'placeholder:text-fg-subtle focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/25 focus-visible:outline-none',
            )}
            {...form.register('text')}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void submit();
              }
            }}
            onInput={(e) => {
              const el = e.currentTarget;
              el.style.height = 'auto';
              el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
            }}
          />
        </div>
        <Button type="submit" size="icon" className="size-10 rounded-full" loading={send.isPending} aria-label="Send">
          {!send.isPending && <SendHorizontal />}
        </Button>
      </div>
      <p id="composer-hint" className="mt-1.5 text-[11px] text-fg-subtle">
        {error ? (
          <span role="alert" className="text-danger">
            {error}
          </span>
        ) : (
          <>
            Enter to send, Shift+Enter for a new line · window open for {w.closesAt ? relative(w.closesAt) : ''}
          </>
        )}
      </p>
    </form>
  );
}
