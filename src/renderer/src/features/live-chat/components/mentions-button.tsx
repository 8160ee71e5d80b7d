/**
 * The "mentions" view: notes that @mention me, newest first, unread ones marked, each opening its
 * conversation (which marks that conversation's mentions seen). The count of unread ones is on the button and
 * follows `mention.created` on the event stream (use-live-chat-sync.ts).
 */
import { Link } from '@tanstack/react-router';
import { AtSign } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useMentionCount, useMentions } from '../api/list-mentions';
import { formatTime } from '../utils/format';
import { contactLabel } from '@shared/contact-label';

export function MentionsButton({ workspaceId, names }: { workspaceId: string; names: { member: (id: string | null | undefined) => string | null } }) {
  const [open, setOpen] = useState(false);
  const count = useMentionCount(workspaceId).data?.unread ?? 0;
  const list = useMentions(workspaceId, open);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button variant="ghost" size="sm" aria-label={count ? `Mentions, ${count} unread` : 'Mentions'} title="Notes that mention you" data-testid="mentions-button">
          <AtSign aria-hidden />
          {count > 0 && <span className="rounded-full bg-accent px-1.5 text-[11px] font-semibold text-white tabular-nums">{count}</span>}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={6} className="z-50 w-96 rounded-lg border border-border bg-surface p-1 text-fg shadow-lg" aria-label="Mentions">
          <h2 className="px-3 pt-2 pb-1 text-[12px] font-semibold text-fg-muted">Notes that mention you</h2>
          {list.isPending ? (
            <div className="flex justify-center p-4">
              <Spinner label="Loading mentions" />
            </div>
          ) : (list.data?.items.length ?? 0) === 0 ? (
            <p className="px-3 py-4 text-[13px] text-fg-muted">Nobody has mentioned you yet. Colleagues type @ and your name in a note.</p>
          ) : (
            <ul className="max-h-96 overflow-y-auto">
              {list.data!.items.map((m) => (
                <li key={m.id}>
                  <Link
                    to="/live-chat/$conversationId"
                    params={{ conversationId: m.conversationId }}
                    search={{ tab: 'open' } as never}
                    onClick={() => setOpen(false)}
                    className={cn('block rounded-md px-3 py-2 hover:bg-subtle', !m.readAt && 'bg-accent-soft/50')}
                    data-unread={!m.readAt || undefined}
                  >
                    <span className="flex items-baseline gap-2 text-[13px]">
                      {!m.readAt && <span className="size-2 shrink-0 rounded-full bg-accent" aria-label="unread" />}
                      <span className={cn('truncate', !m.readAt && 'font-semibold')}>{contactLabel(m.contact)}</span>
                      <span className="ml-auto shrink-0 text-[11px] text-fg-subtle">{formatTime(m.createdAt)}</span>
                    </span>
                    <span className="mt-0.5 line-clamp-2 block text-[12px] text-fg-muted">
                      {names.member(m.mentionedByMemberId) ?? 'A colleague'}: {m.message.text}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
