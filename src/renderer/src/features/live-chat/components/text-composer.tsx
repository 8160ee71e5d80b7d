/** The composer's text box (a reply or a note), with its file, emoji, suggestions, hint and Send. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Lock, SendHorizontal } from 'lucide-react';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { cannedReplyVariables } from '@shared/canned-replies';
import { chatMediaProblem } from '@shared/chat-media';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { useComposerAssist } from '../hooks/use-composer-assist';
import { useComposerDraft } from '../hooks/use-composer-draft';
import { useComposerSend } from '../hooks/use-composer-send';
import { AttachButton, AttachmentPreview } from './composer-attachment';
import { COUNTER_FROM, ComposerFooter } from './composer-footer';
import { SuggestionList, suggestionOptionId } from './composer-suggestions';
import { type ComposerHandle, type ComposerProps, type Mode, TextForm } from './composer-types';
import { EmojiButton } from './emoji-button';

const TEXTAREA_MAX_HEIGHT = 160;

/** Grows the textarea with its text up to a limit; with no text it is back to one line. */
function fitHeight(el: HTMLTextAreaElement) {
  el.style.height = 'auto';
  if (el.value) el.style.height = `${Math.min(el.scrollHeight, TEXTAREA_MAX_HEIGHT)}px`;
}

function SendButton({ note, pending, offline, disabled }: { note: boolean; pending: boolean; offline: string | null; disabled: boolean }) {
  return (
    <span title={offline ?? undefined} className="inline-flex">
      <Button
        type="submit"
        size="icon"
        className={cn('size-10 rounded-full', note && 'bg-warning-text hover:bg-warning-text/90')}
        loading={pending}
        disabled={!!offline || disabled}
        aria-label={note ? 'Add note' : 'Send'}
      >
        {!pending && (note ? <Lock /> : <SendHorizontal />)}
      </Button>
    </span>
  );
}

export const TextComposer = forwardRef<ComposerHandle, ComposerProps & { mode: Mode; offline: string | null }>(function TextComposer(
  { conversationId, workspaceId, window: w, onSent, contact, members = [], extraActions, mode, offline },
  handle,
) {
  const note = mode === 'note';
  const form = useForm<TextForm>({ resolver: zodResolver(TextForm), defaultValues: { text: '' } });
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  useImperativeHandle(handle, () => ({ focus: () => textarea.current?.focus() }));
  const text = form.watch('text');
  const length = text.length;
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [usedCanned, setUsedCanned] = useState(false);
  const problem = file ? chatMediaProblem(file.type, file.size) : null;

  useEffect(() => {
    if (length === 0 && textarea.current) fitHeight(textarea.current);
  }, [length]);
  const draft = useComposerDraft(conversationId, note, form);

  // Variables of an inserted canned reply the contact has no value for: shown until the agent replaces them.
  const unfilled = usedCanned ? cannedReplyVariables(text) : [];

  const assist = useComposerAssist({
    conversationId,
    workspaceId,
    note,
    contact,
    members,
    form,
    textarea,
    onCanned: () => setUsedCanned(true),
    onPicked: () => requestAnimationFrame(() => textarea.current && fitHeight(textarea.current)),
  });

  const insertAtCaret = (s: string) => {
    const el = textarea.current;
    const value = form.getValues('text');
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    form.setValue('text', value.slice(0, start) + s + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + s.length, start + s.length);
    });
  };

  const attach = (f: File | undefined | null) => {
    if (!f || note) return;
    setFile(f);
    requestAnimationFrame(() => textarea.current?.focus());
  };

  const finish = () => {
    form.reset({ text: '' });
    setFile(null);
    setUsedCanned(false);
    draft?.save('');
    draft?.flush();
    onSent?.();
  };

  const { pending, submit } = useComposerSend({ conversationId, note, members, form, offline, file, problem, unfilled, onDone: finish });

  const error = form.formState.errors.text?.message;
  const { ref: registerRef, onChange: registerChange, ...textField } = form.register('text');
  const { open, listId, suggestions } = assist;

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      className={cn('relative px-4 pt-2 pb-3', dragging && 'bg-accent-soft/40')}
      aria-label={note ? 'Internal note' : 'Reply'}
      onDragOver={(e) => {
        if (note || !e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        if (note) return;
        e.preventDefault();
        setDragging(false);
        attach(e.dataTransfer.files[0]);
      }}
    >
      {dragging && (
        <p className="pointer-events-none absolute inset-1 z-10 flex items-center justify-center rounded-lg border-2 border-dashed border-accent text-[13px] font-medium text-fg">
          Drop the file to attach it
        </p>
      )}
      {file && <AttachmentPreview file={file} problem={problem} onRemove={() => setFile(null)} />}
      <div className="relative flex items-end gap-1.5">
        {open && (
          <SuggestionList
            id={listId}
            label={assist.kind === 'canned' ? 'Canned replies' : 'Mention a member'}
            items={suggestions}
            active={assist.active}
            empty={assist.cannedLoading ? 'Loading canned replies…' : 'No canned reply matches. Admins add them in Settings → Canned replies.'}
            onPick={assist.pick}
            onHover={assist.setActive}
          />
        )}
        {!note && <AttachButton disabled={!!offline} onFile={attach} />}
        <EmojiButton onPick={insertAtCaret} disabled={!!offline} />
        {!note && extraActions}
        <div className="flex-1">
          <label htmlFor={`composer-text-${mode}`} className="sr-only">
            {note ? 'Internal note' : file ? 'Caption' : 'Message'}
          </label>
          <textarea
            id={`composer-text-${mode}`}
            rows={1}
            aria-controls={open ? listId : undefined}
            aria-autocomplete="list"
            aria-activedescendant={open && suggestions.length > 0 ? suggestionOptionId(listId, assist.active) : undefined}
            placeholder={note ? 'Note for your team (not sent to the customer); @ to mention' : file ? 'Add a caption' : 'Type a message, / for canned replies'}
            aria-invalid={error ? true : undefined}
            aria-describedby={length >= COUNTER_FROM ? 'composer-hint composer-count' : 'composer-hint'}
            className={cn(
              'block max-h-40 min-h-10 w-full resize-none rounded-lg border border-border-strong px-3 py-2.5 text-[14px] leading-snug text-fg',
              'placeholder:text-fg-subtle focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/50 focus-visible:outline-none',
              note ? 'bg-warning-soft/60' : 'bg-bg',
            )}
            {...textField}
            onChange={(e) => {
              void registerChange(e);
              assist.update(e.target.value, e.target.selectionStart ?? e.target.value.length);
            }}
            ref={(el) => {
              registerRef(el);
              textarea.current = el;
            }}
            onPaste={(e) => {
              const pasted = e.clipboardData.files[0];
              if (pasted && !note) {
                e.preventDefault();
                attach(pasted);
              }
            }}
            onKeyDown={(e) => {
              if (assist.onKeyDown(e)) return;
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void submit();
              }
            }}
            onInput={(e) => fitHeight(e.currentTarget)}
          />
        </div>
        <SendButton note={note} pending={pending} offline={offline} disabled={!!problem} />
      </div>
      <ComposerFooter note={note} length={length} unfilled={unfilled} error={error} offline={offline} closesAt={w.closesAt} />
    </form>
  );
});
