/**
 * The preview: runs the bot as it stands (the draft on the canvas) against a simulated customer through the bot
 * engine's preview, without WhatsApp and without writing to contacts. Shows the messages as WhatsApp would,
 * takes typed answers and taps on list rows and buttons, highlights the step the bot waits at, and lists the
 * attributes collected so far.
 */
import type { Bot } from '@shared/schemas/entities';
import { Play, RotateCcw, Send } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { Input } from '../../../../components/ui/input';
import { errorText } from '../../../../lib/api-client';
import { graphOf } from '../../../../components/canvas';
import { usePreviewTransport } from '../../api/preview-bot';
import type { BotStore } from '../../canvas/bot-store';
import { usePreviewCursor } from '../../canvas/editor-context';
import { type ChatLine, ChatLineView } from './chat-bubbles';
import type { PreviewAnswer, PreviewTransport, PreviewTurn } from './types';

const endReasons: Record<string, string> = {
  completed: 'the bot has nothing more to say',
  handoff: 'handed over to a member',
  failed: 'the bot stopped (see the last note)',
  noAnswer: 'the customer did not answer',
};

export function PreviewPanel({ bot, store }: { bot: Bot; store: BotStore }) {
  const graph = useCallback(() => graphOf(store.getState()), [store]);
  const transport = usePreviewTransport(bot.id, graph);
  return <PreviewChat transport={transport} />;
}

/** The chat itself, over any transport (the panel's real one, or a test's). */
export function PreviewChat({ transport }: { transport: PreviewTransport }) {
  const [lines, setLines] = useState<ChatLine[]>([]);
  const [turn, setTurn] = useState<PreviewTurn | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const setCursor = usePreviewCursor((s) => s.setNodeId);
  const bottom = useRef<HTMLDivElement>(null);

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [lines]);

  const apply = (next: PreviewTurn, said?: string) => {
    setTurn(next);
    setCursor(next.ended ? null : next.currentNodeId);
    setLines((prev) => {
      // Only the newest waiting message takes taps; older menus are history.
      const old = prev.map((l) => (l.from === 'bot' ? { ...l, active: false } : l));
      const mine: ChatLine[] = said === undefined ? [] : [{ from: 'customer', text: said }];
      const last = next.messages.length - 1;
      return [...old, ...mine, ...next.messages.map((message, i) => ({ from: 'bot' as const, message, active: !next.ended && i === last }))];
    });
  };

  const run = async (fn: () => Promise<PreviewTurn>, said?: string) => {
    setPending(true);
    setError(null);
    try {
      apply(await fn(), said);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setPending(false);
    }
  };

  const start = () => {
    setLines([]);
    setTurn(null);
    void run(() => transport.start());
  };
  const answer = (a: PreviewAnswer, said: string) => {
    if (!turn || turn.ended) return;
    void run(() => transport.answer(turn, a), said);
  };
  const attributes = Object.entries(turn?.attributes ?? {});

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center gap-2 border-b border-border px-3 py-2">
        <p className="min-w-0 flex-1 truncate text-xs text-fg-muted" aria-live="polite">
          {!turn ? 'Try the bot as a customer would. Nothing is sent or saved.' : turn.ended ? `Ended: ${endReasons[turn.endReason ?? ''] ?? turn.endReason ?? 'the conversation is over'}` : 'Waiting for the customer'}
        </p>
        <Button size="sm" variant={turn ? 'secondary' : 'primary'} onClick={start} loading={pending && !turn}>
          {turn ? <RotateCcw /> : <Play />} {turn ? 'Restart' : 'Start preview'}
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto bg-chat-bg px-3 py-3" role="log" aria-label="Preview conversation">
        <div className="flex flex-col gap-1.5">
          {lines.map((line, i) => (
            <ChatLineView key={i} line={line} onChoose={(c, type) => answer({ type, id: c.id }, c.title)} />
          ))}
          {error && (
            <p role="alert" className="rounded-md bg-danger-soft px-2 py-1 text-xs text-danger">
              {error}
            </p>
          )}
          <div ref={bottom} />
        </div>
      </div>
      <form
        className="flex gap-2 border-t border-border p-2"
        onSubmit={(e) => {
          e.preventDefault();
          const said = text.trim();
          if (!said) return;
          setText('');
          answer({ type: 'text', text: said }, said);
        }}
      >
        <Input
          aria-label="Message as the customer"
          placeholder={!turn ? 'Start the preview first' : turn.ended ? 'The preview has ended' : 'Type a message'}
          value={text}
          disabled={!turn || turn.ended || pending}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit" size="icon" aria-label="Send" disabled={!turn || turn.ended || pending || !text.trim()}>
          <Send />
        </Button>
      </form>
      <section aria-labelledby="preview-attributes" className="max-h-40 overflow-y-auto border-t border-border px-3 py-2">
        <h3 id="preview-attributes" className="mb-1 text-[11px] font-semibold tracking-wide text-fg-subtle uppercase">
          Collected attributes
        </h3>
        {attributes.length === 0 ? (
          <p className="text-xs text-fg-muted">None yet.</p>
        ) : (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            {attributes.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="text-fg-muted">{name}</dt>
                <dd className="truncate font-medium">{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </div>
  );
}
