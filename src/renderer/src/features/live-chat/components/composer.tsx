import { zodResolver } from '@hookform/resolvers/zod';
import { Clock, Lock, Paperclip, SendHorizontal, TriangleAlert } from 'lucide-react';
import { type ReactNode, forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { limits } from '@shared/limits';
import { cannedReplyVariables, fillCannedReply, mentionedMembers, type CannedReplyContact } from '@shared/canned-replies';
import { chatMediaMimeTypes, chatMediaProblem } from '@shared/chat-media';
import { CreateMessageBody } from '@shared/schemas/requests';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { useOfflineReason } from '../../../lib/connectivity';
import { draftSaver, loadDraft } from '../../../lib/drafts';
import { useCreateMessage } from '../api/create-message';
import { useCreateNote } from '../api/create-note';
import { useCannedReplies } from '../api/list-canned-replies';
import { useSendMediaMessage } from '../api/send-media-message';
import { formatFull } from '../utils/format';
import type { WindowState } from '../utils/window';
import { AttachmentPreview } from './composer-attachment';
import { cannedQuery, matchCannedReplies, matchMembers, mentionQuery } from './composer-assist';
import { type Suggestion, SuggestionList, suggestionOptionId } from './composer-suggestions';
import { EmojiButton } from './emoji-button';
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

type Mode = 'reply' | 'note';

export interface ComposerProps {
  conversationId: string;
  workspaceId: string;
  window: WindowState;
  onSent?: () => void;
  /** Whose conversation it is: canned replies fill `{{name}}` and attributes from it. */
  contact?: CannedReplyContact;
  /** Who can be @mentioned in a note. */
  members?: { id: string; name: string }[];
  /** Buttons of other composer features (interactive messages), shown before Send. */
  extraActions?: ReactNode;
  /** Conversation tools shown at the right of the Reply / Internal note tabs (search). */
  tools?: ReactNode;
}

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
      ) : offline ? (
        <p role="status" className="px-4 py-3 text-[13px] text-fg-muted">
          {offline}. Templates can be sent once you are back online.
        </p>
      ) : (
        <div data-template-sender>
          <div role="status" className="mt-2 flex items-start gap-2.5 border-y border-border bg-warning-soft px-4 py-2.5 text-[13px] text-warning-text">
            <Clock className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>
              {w.closesAt ? (
                <>The 24-hour window closed on {formatFull(w.closesAt.toISOString())}: the customer last wrote more than 24 hours ago.</>
              ) : (
                <>This customer has not written to you yet, so no 24-hour window is open.</>
              )}{' '}
              WhatsApp only allows an approved template until they reply.
            </p>
          </div>
          <TemplateSender conversationId={conversationId} workspaceId={workspaceId} onSent={onSent} />
        </div>
      )}
    </div>
  );
});

type Assist = { kind: 'canned'; query: string } | { kind: 'mention'; query: string; at: number } | null;

const TextComposer = forwardRef<ComposerHandle, ComposerProps & { mode: Mode; offline: string | null }>(function TextComposer(
  { conversationId, workspaceId, window: w, onSent, contact, members = [], extraActions, mode, offline },
  handle,
) {
  const note = mode === 'note';
  const send = useCreateMessage(conversationId);
  const sendNote = useCreateNote(conversationId);
  const sendMedia = useSendMediaMessage(conversationId);
  const form = useForm<TextForm>({ resolver: zodResolver(TextForm), defaultValues: { text: '' } });
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  useImperativeHandle(handle, () => ({ focus: () => textarea.current?.focus() }));
  const text = form.watch('text');
  const length = text.length;
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [assist, setAssist] = useState<Assist>(null);
  const [active, setActive] = useState(0);
  const [usedCanned, setUsedCanned] = useState(false);
  const canned = useCannedReplies(workspaceId, !note && assist?.kind === 'canned');
  const problem = file ? chatMediaProblem(file.type, file.size) : null;
  const pending = send.isPending || sendNote.isPending || sendMedia.isPending;

  useEffect(() => {
    if (length === 0 && textarea.current) fitHeight(textarea.current);
  }, [length]);
  // A reply's draft comes back (unless the agent has started typing); every change is kept. Notes keep none.
  const draft = useMemo(() => (note ? null : draftSaver(conversationId)), [conversationId, note]);
  useEffect(() => {
    if (!draft) return;
    let live = true;
    void loadDraft(conversationId)
      .then((t) => {
        if (live && t && !form.getValues('text')) form.setValue('text', t);
      })
      .catch(() => undefined);
    const sub = form.watch(({ text: t }) => draft.save(t ?? ''));
    return () => {
      live = false;
      sub.unsubscribe();
      draft.flush();
    };
  }, [conversationId, draft, form]);

  // Variables of an inserted canned reply the contact has no value for: shown until the agent replaces them.
  const unfilled = usedCanned ? cannedReplyVariables(text) : [];

  const suggestions: Suggestion[] =
    assist?.kind === 'canned'
      ? matchCannedReplies(canned.data ?? [], assist.query).map((r) => ({ id: r.id, label: `/${r.shortcut}`, detail: r.text, badge: r.scope === 'personal' ? 'mine' : undefined }))
      : assist?.kind === 'mention'
        ? matchMembers(members, assist.query).map((m) => ({ id: m.id, label: `@${m.name}` }))
        : [];
  const listId = `composer-assist-${conversationId}`;

  const updateAssist = (value: string, caret: number) => {
    const q = note ? null : cannedQuery(value);
    const m = note ? mentionQuery(value, caret) : null;
    const next: Assist = q !== null ? { kind: 'canned', query: q } : m ? { kind: 'mention', ...m } : null;
    setAssist(next);
    setActive(0);
  };

  const pick = (index: number) => {
    if (!assist) return;
    if (assist.kind === 'canned') {
      const reply = matchCannedReplies(canned.data ?? [], assist.query)[index];
      if (!reply) return;
      const filled = contact ? fillCannedReply(reply.text, contact) : { text: reply.text };
      form.setValue('text', filled.text, { shouldValidate: false });
      setUsedCanned(true);
    } else {
      const member = matchMembers(members, assist.query)[index];
      if (!member) return;
      const value = form.getValues('text');
      const caret = textarea.current?.selectionStart ?? value.length;
      const next = `${value.slice(0, assist.at)}@${member.name} ${value.slice(caret)}`;
      form.setValue('text', next);
      requestAnimationFrame(() => {
        const pos = assist.at + member.name.length + 2;
        textarea.current?.setSelectionRange(pos, pos);
      });
    }
    setAssist(null);
    requestAnimationFrame(() => textarea.current && fitHeight(textarea.current));
  };

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

  const submit = async () => {
    if (offline || pending) return;
    const value = form.getValues('text');
    if (unfilled.length > 0) {
      form.setError('text', { message: `Replace ${unfilled.map((v) => `{{${v}}}`).join(', ')} before sending: this contact has no value for it` });
      return;
    }
    try {
      if (file) {
        if (problem) return;
        await sendMedia.mutateAsync({ file, caption: value });
        return finish();
      }
      const ok = await form.trigger('text');
      if (!ok) return;
      if (note) {
        await sendNote.mutateAsync({ text: value.trim(), mentionedMemberIds: mentionedMembers(value, members).map((m) => m.id) });
      } else {
        await send.mutateAsync(value);
      }
      finish();
    } catch {
      // The mutation cache toasts the failure (`status: message`); the text and file stay for another try.
    }
  };

  const error = form.formState.errors.text?.message;
  const { ref: registerRef, onChange: registerChange, ...textField } = form.register('text');
  const over = length > limits.whatsappTextMax;
  const open = assist !== null && (suggestions.length > 0 || assist.kind === 'canned');

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
            label={assist?.kind === 'canned' ? 'Canned replies' : 'Mention a member'}
            items={suggestions}
            active={active}
            empty={canned.isPending ? 'Loading canned replies…' : 'No canned reply matches. Admins add them in Settings → Canned replies.'}
            onPick={pick}
            onHover={setActive}
          />
        )}
        {!note && (
          <>
            <input
              ref={fileInput}
              type="file"
              className="sr-only"
              tabIndex={-1}
              aria-hidden
              accept={chatMediaMimeTypes.join(',')}
              data-testid="composer-file-input"
              onChange={(e) => {
                attach(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <Button type="button" variant="ghost" size="icon" aria-label="Attach a file" title="Attach a photo, video, audio file or document" disabled={!!offline} onClick={() => fileInput.current?.click()}>
              <Paperclip aria-hidden />
            </Button>
          </>
        )}
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
            aria-activedescendant={open && suggestions.length > 0 ? suggestionOptionId(listId, active) : undefined}
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
              updateAssist(e.target.value, e.target.selectionStart ?? e.target.value.length);
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
              if (open && suggestions.length > 0) {
                if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                  e.preventDefault();
                  setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
                  return;
                }
                if (e.key === 'Enter' || e.key === 'Tab') {
                  e.preventDefault();
                  pick(active);
                  return;
                }
              }
              if (open && e.key === 'Escape') {
                e.preventDefault();
                e.stopPropagation();
                setAssist(null);
                return;
              }
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void submit();
              }
            }}
            onInput={(e) => fitHeight(e.currentTarget)}
          />
        </div>
        <span title={offline ?? undefined} className="inline-flex">
          <Button
            type="submit"
            size="icon"
            className={cn('size-10 rounded-full', note && 'bg-warning-text hover:bg-warning-text/90')}
            loading={pending}
            disabled={!!offline || !!problem}
            aria-label={note ? 'Add note' : 'Send'}
          >
            {!pending && (note ? <Lock /> : <SendHorizontal />)}
          </Button>
        </span>
      </div>
      {unfilled.length > 0 && (
        <p role="status" className="mt-1.5 flex items-center gap-1.5 text-[12px] text-warning-text" data-testid="canned-missing">
          <TriangleAlert className="size-3.5 shrink-0" aria-hidden />
          This contact has no value for {unfilled.map((v) => `{{${v}}}`).join(', ')}: replace it before sending.
        </p>
      )}
      <div className="mt-1.5 flex items-start gap-3">
        <p id="composer-hint" className="min-w-0 flex-1 text-[11px] text-fg-subtle">
          {error ? (
            <span role="alert" className="text-danger">
              {error}
            </span>
          ) : offline ? (
            <span data-testid="composer-offline">{offline}. What you type is kept as a draft.</span>
          ) : note ? (
            <>Only your team sees notes · Enter to add, Shift+Enter for a new line</>
          ) : (
            <>
              Enter to send, Shift+Enter for a new line · / for canned replies · window open for {w.closesAt ? relative(w.closesAt) : ''}
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
