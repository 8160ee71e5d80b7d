/** The contact's other conversations in the contact panel, each a link to it. */
import { Link } from '@tanstack/react-router';
import { MessageSquare } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorText } from '../../../lib/api-client';
import { useContactConversations } from '../api/list-contact-conversations';
import { formatListTime } from '../utils/format';
import { messagePreview } from '../utils/message-content';

export function OtherConversations({ contactId, conversationId }: { contactId: string; conversationId: string }) {
  const others = useContactConversations(contactId);
  return (
    <section className="border-t border-border px-4 py-3" aria-label="Other conversations">
      <h3 className="mb-2 text-[12px] font-semibold tracking-wide text-fg-subtle uppercase">Other conversations</h3>
      {others.isPending ? (
        <Skeleton className="h-10" />
      ) : others.isError ? (
        <p className="text-[13px] text-danger">{errorText(others.error)}</p>
      ) : (
        (() => {
          const list = others.data.items.filter((c) => c.id !== conversationId);
          if (!list.length) return <p className="text-[13px] text-fg-muted">None.</p>;
          return (
            <ul className="flex flex-col gap-1">
              {list.map((c) => (
                <li key={c.id}>
                  <Link
                    to="/live-chat/$conversationId"
                    params={{ conversationId: c.id }}
                    search={{ tab: c.isActive ? 'open' : 'closed' }}
                    className="flex items-start gap-2 rounded-md px-2 py-1.5 hover:bg-subtle"
                  >
                    <MessageSquare className="mt-0.5 size-4 shrink-0 text-fg-subtle" aria-hidden />
                    <span className="min-w-0 flex-1">
                      <span className="flex items-center gap-2 text-[12px]">
                        <Badge tone={c.isActive ? 'green' : 'neutral'}>{c.isActive ? 'Open' : 'Closed'}</Badge>
                        <span className="ml-auto text-fg-subtle">{formatListTime(c.lastMessageAt ?? c.createdAt)}</span>
                      </span>
                      <span className="mt-0.5 block truncate text-[13px] text-fg-muted">
                        {c.lastMessage ? messagePreview(c.lastMessage) : 'No messages'}
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          );
        })()
      )}
    </section>
  );
}
