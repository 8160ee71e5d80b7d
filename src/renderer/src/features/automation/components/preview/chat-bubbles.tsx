/** The preview's messages drawn as WhatsApp draws them: bubbles, media, list menus, reply buttons, flow buttons. */
import { FileText, List as ListIcon, Play, SquareArrowOutUpRight } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { cn } from '../../../../lib/cn';
import type { PreviewMessage } from './types';

type PreviewChoice = PreviewMessage['buttons'][number];

export type ChatLine = { from: 'bot'; message: PreviewMessage; active: boolean } | { from: 'customer'; text: string };

function Bubble({ from, children, className }: { from: 'bot' | 'customer'; children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex', from === 'customer' ? 'justify-end' : 'justify-start')}>
      <div
        className={cn(
          'max-w-[85%] rounded-lg px-2.5 py-1.5 text-[13px] leading-snug whitespace-pre-wrap break-words text-fg shadow-xs',
          from === 'customer' ? 'rounded-tr-none bg-[#d9fdd3] text-[#111b21]' : 'rounded-tl-none bg-chat-bubble',
          className,
        )}
      >
        {children}
      </div>
    </div>
  );
}

function Framed({ header, body, footer }: { header?: string | null; body: string; footer?: string | null }) {
  return (
    <>
      {header && <p className="mb-0.5 font-semibold">{header}</p>}
      <p>{body}</p>
      {footer && <p className="mt-1 text-[11px] text-fg-subtle">{footer}</p>}
    </>
  );
}

function ChoiceButton({ children, onClick, disabled, icon }: { children: ReactNode; onClick?: () => void; disabled?: boolean; icon?: ReactNode }) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={onClick}
      className="flex w-full items-center justify-center gap-1.5 rounded-lg bg-chat-bubble px-2 py-1.5 text-[13px] font-medium text-[#0a7cff] shadow-xs enabled:hover:bg-subtle disabled:opacity-60 dark:text-sky-400"
    >
      {icon}
      {children}
    </button>
  );
}

function ListMessage({ message, active, onChoose }: { message: PreviewMessage; active: boolean; onChoose: (c: PreviewChoice) => void }) {
  const [open, setOpen] = useState(false);
  const name = message.actionLabel ?? 'Choose';
  return (
    <div className="flex max-w-[85%] flex-col gap-1">
      <Bubble from="bot" className="max-w-full">
        <Framed header={message.header} body={message.text ?? ''} footer={message.footer} />
      </Bubble>
      <ChoiceButton disabled={!active} onClick={() => setOpen((o) => !o)} icon={<ListIcon className="size-3.5" aria-hidden />}>
        {name}
      </ChoiceButton>
      {open && active && (
        <ul role="listbox" aria-label={name} className="rounded-lg bg-chat-bubble p-1 shadow-md">
          {message.buttons.map((row) => (
            <li key={row.id}>
              <button
                type="button"
                role="option"
                aria-selected={false}
                className="flex w-full flex-col rounded-md px-2 py-1.5 text-left text-[13px] hover:bg-subtle"
                onClick={() => {
                  setOpen(false);
                  onChoose(row);
                }}
              >
                <span>{row.title}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One line of the preview chat; `onChoose` answers a list or buttons (only the message being waited on). */
export function ChatLineView({ line, onChoose }: { line: ChatLine; onChoose: (c: PreviewChoice, kind: 'button' | 'listRow') => void }) {
  if (line.from === 'customer') return <Bubble from="customer">{line.text}</Bubble>;
  const { message: m, active } = line;
  const text = m.text ?? '';
  switch (m.type) {
    case 'text':
      return <Bubble from="bot">{text}</Bubble>;
    case 'note':
      return (
        <p className="mx-auto max-w-[90%] rounded-md bg-info-soft px-2 py-1 text-center text-[11px] text-info-text" role="note">
          {text}
        </p>
      );
    case 'image':
    case 'video':
    case 'document':
      return (
        <Bubble from="bot">
          {m.type === 'image' && m.mediaUrl ? (
            <img src={m.mediaUrl} alt={text || 'Image'} className="mb-1 max-h-48 rounded-md object-cover" />
          ) : (
            <span className="mb-1 flex items-center gap-2 rounded-md bg-subtle px-2 py-2 text-xs">
              {m.type === 'video' ? <Play className="size-4" aria-hidden /> : <FileText className="size-4" aria-hidden />}
              {m.filename || (m.type === 'video' ? 'Video' : m.type === 'image' ? 'Image' : 'Document')}
            </span>
          )}
          {text && <p>{text}</p>}
        </Bubble>
      );
    case 'list':
      return <ListMessage message={m} active={active} onChoose={(c) => onChoose(c, 'listRow')} />;
    case 'reply':
      return (
        <div className="flex max-w-[85%] flex-col gap-1">
          <Bubble from="bot" className="max-w-full">
            <Framed header={m.header} body={text} footer={m.footer} />
          </Bubble>
          {m.buttons.map((b) => (
            <ChoiceButton key={b.id} disabled={!active} onClick={() => onChoose(b, 'button')}>
              {b.title}
            </ChoiceButton>
          ))}
        </div>
      );
    case 'flow':
      return (
        <div className="flex max-w-[85%] flex-col gap-1">
          <Bubble from="bot" className="max-w-full">
            <Framed header={m.header} body={text} footer={m.footer} />
          </Bubble>
          <ChoiceButton disabled icon={<SquareArrowOutUpRight className="size-3.5" aria-hidden />}>
            {m.actionLabel ?? 'Open'}
          </ChoiceButton>
          <p className="text-[11px] text-fg-subtle">WhatsApp Flows open on the customer's phone; the preview cannot fill them.</p>
        </div>
      );
  }
}
