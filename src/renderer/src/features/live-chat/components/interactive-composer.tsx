/**
 * Reply buttons and list menus from the composer, inside the 24-hour window: a dialog to write the
 * message within WhatsApp's limits (counters on every field, the shared schema's messages under it, Add
 * disabled at the limit), sent through POST /message/interactive; the timeline shows it as WhatsApp does.
 */
import { ListChecks, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { CreateInteractiveMessageBody, interactiveLimits as L } from '@shared/schemas/agent-tools';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Input, Textarea } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';
import { useOfflineReason } from '../../../lib/connectivity';
import { useSendInteractiveMessage } from '../api/send-interactive-message';

type Kind = 'buttons' | 'list';
interface Row {
  title: string;
  description: string;
}
export interface InteractiveDraft {
  kind: Kind;
  header: string;
  body: string;
  footer: string;
  buttons: string[];
  button: string;
  sections: { title: string; rows: Row[] }[];
}
const emptyDraft: InteractiveDraft = { kind: 'buttons', header: '', body: '', footer: '', buttons: [''], button: '', sections: [{ title: '', rows: [{ title: '', description: '' }] }] };
const opt = (s: string) => (s.trim() ? s : undefined);

/** The request the draft stands for (empty optional fields left out). */
export function draftBody(d: InteractiveDraft, conversationId: string): unknown {
  const texts = { conversationId, header: opt(d.header), body: d.body, footer: opt(d.footer) };
  if (d.kind === 'buttons') return { type: 'buttons', ...texts, buttons: d.buttons.map((title) => ({ title })) };
  return {
    type: 'list',
    ...texts,
    button: d.button,
    sections: d.sections.map((s) => ({ title: opt(s.title), rows: s.rows.map((r) => ({ title: r.title, description: opt(r.description) })) })),
  };
}

/** The shared schema's messages by field path ("buttons.1.title", "sections"). */
function problems(d: InteractiveDraft, conversationId: string): Map<string, string> {
  const parsed = CreateInteractiveMessageBody.safeParse(draftBody(d, conversationId));
  const out = new Map<string, string>();
  if (!parsed.success) for (const issue of parsed.error.issues) {
    const key = issue.path.join('.');
    if (!out.has(key)) out.set(key, issue.message);
  }
  return out;
}

function Field({ label, value, max, error, onChange, multiline, optional, className }: {
  label: string;
  value: string;
  max: number;
  error?: string;
  onChange: (v: string) => void;
  multiline?: boolean;
  optional?: boolean;
  className?: string;
}) {
  const id = useId();
  const over = value.trim().length > max;
  const Control = multiline ? Textarea : Input;
  return (
    <div className={cn('flex min-w-0 flex-col gap-1', className)}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-[12.5px] font-medium text-fg">
          {label}
          {optional && <span className="ml-1 font-normal text-fg-subtle">(optional)</span>}
        </label>
        <span id={`${id}-count`} className={cn('text-[11px] tabular-nums', over ? 'font-semibold text-danger' : 'text-fg-subtle')}>
          {value.trim().length}/{max}
        </span>
      </div>
      <Control
        id={id}
        value={value}
        rows={multiline ? 3 : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ''}`}
        onChange={(e: { target: { value: string } }) => onChange(e.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="text-[12px] text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

function Limit({ children }: { children: ReactNode }) {
  return <p className="text-[12px] text-fg-muted">{children}</p>;
}

function ButtonsFields({ d, set, err }: { d: InteractiveDraft; set: (d: InteractiveDraft) => void; err: (k: string) => string | undefined }) {
  const full = d.buttons.length >= L.buttonsMax;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-[12.5px] font-semibold text-fg">Buttons</legend>
      {d.buttons.map((b, i) => (
        <div key={i} className="flex items-end gap-2">
          <Field className="flex-1" label={`Button ${i + 1}`} value={b} max={L.buttonTitleMax} error={err(`buttons.${i}.title`)} onChange={(v) => set({ ...d, buttons: d.buttons.map((x, j) => (j === i ? v : x)) })} />
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove button ${i + 1}`} disabled={d.buttons.length === 1} onClick={() => set({ ...d, buttons: d.buttons.filter((_, j) => j !== i) })}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      ))}
      {err('buttons') && <p className="text-[12px] text-danger">{err('buttons')}</p>}
      <div className="flex items-center gap-3">
        <Button type="button" variant="secondary" size="sm" disabled={full} onClick={() => set({ ...d, buttons: [...d.buttons, ''] })}>
          <Plus aria-hidden /> Add button
        </Button>
        <Limit>{full ? `WhatsApp allows at most ${L.buttonsMax} reply buttons.` : `Up to ${L.buttonsMax} buttons, ${L.buttonTitleMax} characters each.`}</Limit>
      </div>
    </fieldset>
  );
}

function ListFields({ d, set, err }: { d: InteractiveDraft; set: (d: InteractiveDraft) => void; err: (k: string) => string | undefined }) {
  const total = d.sections.reduce((n, s) => n + s.rows.length, 0);
  const full = total >= L.rowsMax;
  const setSection = (i: number, s: InteractiveDraft['sections'][number]) => set({ ...d, sections: d.sections.map((x, j) => (j === i ? s : x)) });
  return (
    <div className="flex flex-col gap-3">
      <Field label="Menu button" value={d.button} max={L.listButtonMax} error={err('button')} onChange={(v) => set({ ...d, button: v })} />
      {d.sections.map((s, i) => (
        <fieldset key={i} className="flex flex-col gap-2 rounded-lg border border-border p-3">
          <legend className="px-1 text-[12.5px] font-semibold text-fg">Section {i + 1}</legend>
          <div className="flex items-end gap-2">
            <Field className="flex-1" label="Section title" optional={d.sections.length === 1} value={s.title} max={L.sectionTitleMax} error={err(`sections.${i}.title`)} onChange={(v) => setSection(i, { ...s, title: v })} />
            <Button type="button" variant="ghost" size="icon" aria-label={`Remove section ${i + 1}`} disabled={d.sections.length === 1} onClick={() => set({ ...d, sections: d.sections.filter((_, j) => j !== i) })}>
              <Trash2 aria-hidden />
            </Button>
          </div>
          {s.rows.map((r, k) => (
            <div key={k} className="flex items-start gap-2 border-t border-border pt-2">
              <Field className="w-2/5" label={`Row ${k + 1}`} value={r.title} max={L.rowTitleMax} error={err(`sections.${i}.rows.${k}.title`)} onChange={(v) => setSection(i, { ...s, rows: s.rows.map((x, j) => (j === k ? { ...x, title: v } : x)) })} />
              <Field className="flex-1" label={`Row ${k + 1} description`} optional value={r.description} max={L.rowDescriptionMax} error={err(`sections.${i}.rows.${k}.description`)} onChange={(v) => setSection(i, { ...s, rows: s.rows.map((x, j) => (j === k ? { ...x, description: v } : x)) })} />
              <Button type="button" variant="ghost" size="icon" className="mt-5" aria-label={`Remove row ${k + 1} of section ${i + 1}`} disabled={s.rows.length === 1} onClick={() => setSection(i, { ...s, rows: s.rows.filter((_, j) => j !== k) })}>
                <Trash2 aria-hidden />
              </Button>
            </div>
          ))}
          <Button type="button" variant="secondary" size="sm" className="self-start" disabled={full} onClick={() => setSection(i, { ...s, rows: [...s.rows, { title: '', description: '' }] })}>
            <Plus aria-hidden /> Add row
          </Button>
        </fieldset>
      ))}
      {err('sections') && <p className="text-[12px] text-danger">{err('sections')}</p>}
      <div className="flex items-center gap-3">
        <Button type="button" variant="secondary" size="sm" disabled={full || d.sections.length >= L.sectionsMax} onClick={() => set({ ...d, sections: [...d.sections, { title: '', rows: [{ title: '', description: '' }] }] })}>
          <Plus aria-hidden /> Add section
        </Button>
        <Limit>{full ? `WhatsApp allows at most ${L.rowsMax} rows in all sections together.` : `${total} of ${L.rowsMax} rows.`}</Limit>
      </div>
    </div>
  );
}

function InteractiveForm({ conversationId, onSent, onCancel }: { conversationId: string; onSent: () => void; onCancel: () => void }) {
  const [d, set] = useState<InteractiveDraft>(emptyDraft);
  const [tried, setTried] = useState(false);
  const send = useSendInteractiveMessage(conversationId);
  const found = problems(d, conversationId);
  // Counters say "too long" at once; the messages show after a first try, so an empty form is not all red.
  const err = (k: string) => (tried ? found.get(k) : undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The dialog is portaled out of the composer's form, but React still bubbles the submit to it.
    e.stopPropagation();
    setTried(true);
    const parsed = CreateInteractiveMessageBody.safeParse(draftBody(d, conversationId));
    if (parsed.success) send.mutate(parsed.data, { onSuccess: onSent });
  };
  const formId = useId();
  // Cancel and Send in the dialog's footer, always in view however long the form grows.
  const footer = (
    <>
      <Button type="button" variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" form={formId} loading={send.isPending} disabled={tried && found.size > 0}>
        Send {d.kind === 'buttons' ? 'buttons' : 'list'}
      </Button>
    </>
  );
  return (
    <DialogContent title="Buttons or a list" description="The customer taps an answer; it comes back into this conversation." className="max-w-xl" footer={footer}>
      <form id={formId} noValidate onSubmit={submit} className="flex flex-col gap-4">
        <div
          role="radiogroup"
          aria-label="Kind"
          className="inline-flex self-start rounded-lg bg-subtle p-0.5"
          onKeyDown={(e) => {
            // Radio group keys: an arrow moves to (and chooses) the other kind.
            if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) return;
            e.preventDefault();
            const next = d.kind === 'buttons' ? 'list' : 'buttons';
            set({ ...d, kind: next });
            e.currentTarget.querySelector<HTMLElement>(`[data-kind="${next}"]`)?.focus();
          }}
        >
          {(['buttons', 'list'] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="radio"
              data-kind={k}
              aria-checked={d.kind === k}
              tabIndex={d.kind === k ? 0 : -1}
              onClick={() => set({ ...d, kind: k })}
              className={cn('rounded-md px-3 py-1 text-[13px] font-medium', d.kind === k ? 'bg-surface text-fg shadow-sm' : 'text-fg-muted hover:text-fg')}
            >
              {k === 'buttons' ? 'Reply buttons' : 'List menu'}
            </button>
          ))}
        </div>
        <Field label="Header" optional value={d.header} max={L.headerMax} error={err('header')} onChange={(v) => set({ ...d, header: v })} />
        <Field label="Message" multiline value={d.body} max={L.bodyMax} error={err('body')} onChange={(v) => set({ ...d, body: v })} />
        <Field label="Footer" optional value={d.footer} max={L.footerMax} error={err('footer')} onChange={(v) => set({ ...d, footer: v })} />
        {d.kind === 'buttons' ? <ButtonsFields d={d} set={set} err={err} /> : <ListFields d={d} set={set} err={err} />}
      </form>
    </DialogContent>
  );
}

/** The composer's button that opens the form (shown only while the 24-hour window is open). */
export function InteractiveButton({ conversationId, onSent }: { conversationId: string; onSent?: () => void }) {
  const [open, setOpen] = useState(false);
  const offline = useOfflineReason();
  return (
    <>
      <Button type="button" variant="ghost" size="icon" aria-label="Send buttons or a list" title={offline ?? 'Reply buttons or a list menu'} disabled={!!offline} onClick={() => setOpen(true)}>
        <ListChecks aria-hidden />
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        {open && (
          <InteractiveForm
            conversationId={conversationId}
            onCancel={() => setOpen(false)}
            onSent={() => {
              setOpen(false);
              onSent?.();
            }}
          />
        )}
      </Dialog>
    </>
  );
}
