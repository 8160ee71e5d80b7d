import { MessageText } from './message-text';
import { Popover } from 'radix-ui';
import { Bot, ExternalLink, FileText, LayoutTemplate, List, Lock, Megaphone, Reply, Smartphone, Workflow } from 'lucide-react';
import { memo } from 'react';
import type { Message } from '@shared/schemas/entities';
import { toast } from 'sonner';
import { needsToken, openFile, serverFileUrl, useFileSrc } from '../../../lib/authorized-files';
import { cn } from '../../../lib/cn';
import { formatFull, formatTime } from '../utils/format';
import { type MediaKind, messageContent } from '../utils/message-content';
import { DeliveryTicks } from './delivery-ticks';

function fileNameOf(url: string | null, fallback: string): string {
  if (!url) return fallback;
  try {
    const last = new URL(url, 'http://x').pathname.split('/').pop();
    return last ? decodeURIComponent(last) : fallback;
  } catch {
    return fallback;
  }
}

const unavailable = (what: string) => (
  <div className="flex h-32 w-64 items-center justify-center rounded-md bg-muted text-xs text-fg-subtle">{what} unavailable</div>
);

function Media({ kind, url, filename, caption }: { kind: MediaKind; url: string | null; filename?: string; caption?: string }) {
  // Server files need the user's token: fetched and shown through a blob: URL.
  const { src, failed } = useFileSrc(kind === 'document' ? null : url);
  if (kind === 'image') {
    if (!url || failed) return unavailable('Image');
    return src ? (
      <a href={src} target="_blank" rel="noreferrer" className="block overflow-hidden rounded-md">
        <img src={src} alt={caption || 'Image'} loading="lazy" className="max-h-72 w-full max-w-xs bg-muted object-cover" />
      </a>
    ) : (
      <div className="h-40 w-64 animate-pulse rounded-md bg-muted" aria-label="Loading image" />
    );
  }
  if (kind === 'audio') {
    if (!url || failed) return unavailable('Audio');
    return src ? (
      <audio src={src} controls preload="metadata" aria-label={caption || 'Audio'} className="w-64 max-w-full" />
    ) : (
      <div className="h-10 w-64 animate-pulse rounded-md bg-muted" aria-label="Loading audio" />
    );
  }
  if (kind === 'video') {
    if (!url || failed) return unavailable('Video');
    return src ? (
      <video src={src} controls preload="metadata" aria-label={caption || 'Video'} className="max-h-72 w-full max-w-xs rounded-md bg-black" />
    ) : (
      <div className="h-40 w-64 animate-pulse rounded-md bg-muted" aria-label="Loading video" />
    );
  }
  const name = filename || fileNameOf(url, 'Document');
  return (
    <a
      href={url ? serverFileUrl(url) : undefined}
      target="_blank"
      rel="noreferrer"
      aria-disabled={!url}
      onClick={(e) => {
        if (url && needsToken(url)) {
          e.preventDefault();
          openFile(url, name).catch((err: Error) => toast.error(err.message));
        }
      }}
      className="flex min-w-56 items-center gap-3 rounded-md border border-black/5 bg-black/[0.04] px-3 py-2.5 hover:bg-black/[0.07] dark:border-white/5 dark:bg-white/[0.06] dark:hover:bg-white/10"
    >
      <span className="flex size-9 items-center justify-center rounded bg-danger/90 text-white">
        <FileText className="size-4" aria-hidden />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate text-[13px] font-medium">{name}</span>
        <span className="block text-[11px] text-fg-subtle">{url ? 'Open document' : 'Unavailable'}</span>
      </span>
      {url && <ExternalLink className="size-3.5 text-fg-subtle" aria-hidden />}
    </a>
  );
}

function ListAction({ list }: { list: NonNullable<ReturnType<typeof messageContent>['list']> }) {
  const rows = list.sections.reduce((n, s) => n + s.rows.length, 0);
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button
          type="button"
          className="flex w-full cursor-pointer items-center justify-center gap-2 border-t border-black/5 py-2 text-[13px] font-medium text-info-text hover:bg-black/[0.03] dark:border-white/10 dark:hover:bg-white/5"
        >
          <List className="size-4" aria-hidden />
          {list.button}
          <span className="sr-only">({rows} options)</span>
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          sideOffset={6}
          align="center"
          className="z-50 w-72 rounded-lg border border-border bg-surface p-1 text-fg shadow-lg"
          aria-label={list.button}
        >
          <div className="max-h-80 overflow-y-auto">
            {list.sections.map((s, i) => (
              <section key={i} className="py-1">
                {s.title && <h2 className="px-3 pt-1 pb-1 text-[11px] font-semibold tracking-wide text-accent-text uppercase">{s.title}</h2>}
                <ul>
                  {s.rows.map((r) => (
                    <li key={r.id} className="rounded-md px-3 py-2 hover:bg-subtle">
                      <div className="text-[13px] font-medium">{r.title}</div>
                      {r.description && <div className="text-xs text-fg-muted">{r.description}</div>}
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

export interface MessageBubbleProps {
  message: Message;
  /** Who sent an outbound message, as shown above it (member name, or the bot). */
  senderName?: string | null;
  /** Words of a search to mark in the text. */
  highlight?: readonly string[];
  /** The search match the agent is on: outlined. */
  current?: boolean;
}

/** An internal note: the team's, never sent to WhatsApp, so it looks like nothing the customer sees. */
function NoteBubble({ message: m, senderName, highlight, current }: MessageBubbleProps) {
  return (
    <div className="flex w-full justify-center px-4 md:px-8" data-message-id={m.id}>
      <article
        aria-label={`Internal note by ${senderName ?? 'a member'} at ${formatFull(m.createdAt)}`}
        data-type="note"
        className={cn(
          'w-full max-w-[min(36rem,90%)] rounded-lg border border-dashed border-warning-text/50 bg-warning-soft px-3 py-2 text-[14px] leading-snug text-fg',
          current && 'ring-2 ring-accent',
        )}
      >
        <div className="mb-1 flex items-center gap-1.5 text-[11px] font-semibold text-warning-text">
          <Lock className="size-3" aria-hidden />
          <span>Internal note{senderName ? ` · ${senderName}` : ''}</span>
          <span className="font-normal">· only your team sees this</span>
          <time className="ml-auto font-normal" dateTime={m.createdAt} title={formatFull(m.createdAt)}>
            {formatTime(m.createdAt)}
          </time>
        </div>
        {m.text && <MessageText text={m.text} highlight={highlight} />}
      </article>
    </div>
  );
}

/** One message of the conversation view, any type, in a WhatsApp-like bubble. */
export const MessageBubble = memo(function MessageBubble({ message: m, senderName, highlight, current }: MessageBubbleProps) {
  if (m.type === 'note') return <NoteBubble message={m} senderName={senderName} highlight={highlight} current={current} />;
  const outbound = m.creator !== 'user';
  const c = messageContent(m);
  const hasActions = !!(c.buttons?.length || c.list || c.flow);
  const who = m.creator === 'bot' ? (senderName ?? (m.campaignId ? 'Campaign' : 'Bot')) : m.creator === 'agent' ? senderName : null;

  return (
    <div className={cn('flex w-full px-4 md:px-8', outbound ? 'justify-end' : 'justify-start')} data-message-id={m.id}>
      <article
        aria-label={`${outbound ? 'Sent' : 'Received'} ${m.type} message at ${formatFull(m.createdAt)}`}
        data-type={m.type}
        className={cn(
          'relative max-w-[min(32rem,85%)] overflow-hidden rounded-lg text-[14px] leading-snug text-fg shadow-[0_1px_0.5px_rgba(11,20,26,0.13)]',
          // WhatsApp's outbound green; in dark mode the muted text tokens are lightened to keep 4.5:1 on it.
          outbound
            ? 'rounded-tr-sm bg-[#d9fdd3] dark:bg-[#005c4b] dark:[--color-accent-text:#86e5ad] dark:[--color-fg-muted:#c9d8d4] dark:[--color-fg-subtle:#b3cbc5] dark:[--color-info-text:#9fd8ff]'
            : 'rounded-tl-sm bg-chat-bubble',
          m.status === 'failed' && 'ring-1 ring-danger/40',
          current && 'ring-2 ring-accent',
        )}
      >
        <div className="px-2.5 pt-1.5 pb-1">
          {(who || m.type === 'template' || m.sentFromPhone) && (
            <div className="mb-1 flex items-center gap-1.5 text-[11px] font-semibold">
              {m.creator === 'bot' && (m.campaignId ? <Megaphone className="size-3 text-info-text" aria-hidden /> : <Bot className="size-3 text-info-text" aria-hidden />)}
              {who && <span className={m.creator === 'bot' ? 'text-info-text' : 'text-accent-text'}>{who}</span>}
              {m.sentFromPhone && (
                // Sent from the WhatsApp Business app on the business's phone, not through Parley.
                <span className="inline-flex items-center gap-1 font-medium text-fg-muted">
                  <Smartphone className="size-3" aria-hidden />
                  Sent from the phone
                </span>
              )}
              {m.type === 'template' && (
                <span className="inline-flex items-center gap-1 rounded bg-black/5 px-1.5 py-px font-medium text-fg-muted dark:bg-white/10">
                  <LayoutTemplate className="size-3" aria-hidden />
                  {c.template?.name ? `Template · ${c.template.name}` : 'Template'}
                </span>
              )}
            </div>
          )}
          {c.header && (
            <div className="mb-1">
              {'text' in c.header ? (
                <p className="font-semibold">{c.header.text}</p>
              ) : (
                <Media kind={c.header.media} url={c.header.url} filename={c.header.filename} />
              )}
            </div>
          )}
          {c.media && (
            <div className="mb-1">
              <Media kind={c.media.kind} url={c.media.url} filename={c.media.filename} caption={c.body} />
            </div>
          )}
          {c.body && <MessageText text={c.body} highlight={highlight} />}
          {c.footer && <p className="mt-1 text-[12px] text-fg-subtle">{c.footer}</p>}
          <div className="float-right mt-1 -mb-0.5 ml-3 flex items-center gap-1 text-[11px] leading-none text-fg-subtle">
            <time dateTime={m.createdAt} title={formatFull(m.createdAt)}>
              {formatTime(m.createdAt)}
            </time>
            {outbound && <DeliveryTicks status={m.status} failureReason={m.failureReason} />}
          </div>
          <div className="clear-both" />
        </div>
        {hasActions && (
          <div>
            {c.buttons?.map((b, i) => (
              <div
                key={i}
                className="flex items-center justify-center gap-1.5 border-t border-black/5 py-2 text-[13px] font-medium text-info-text dark:border-white/10"
              >
                {b.kind === 'URL' ? <ExternalLink className="size-3.5" aria-hidden /> : <Reply className="size-3.5" aria-hidden />}
                {b.title}
              </div>
            ))}
            {c.list && <ListAction list={c.list} />}
            {c.flow && (
              <div className="flex items-center justify-center gap-1.5 border-t border-black/5 py-2 text-[13px] font-medium text-info-text dark:border-white/10">
                <Workflow className="size-3.5" aria-hidden />
                {c.flow.cta}
              </div>
            )}
          </div>
        )}
        {m.status === 'failed' && (
          <p role="note" className="border-t border-danger/20 bg-danger-soft px-2.5 py-1.5 text-[12px] text-danger">
            Not delivered{m.failureReason ? `: ${m.failureReason}` : ''}
          </p>
        )}
      </article>
    </div>
  );
});
