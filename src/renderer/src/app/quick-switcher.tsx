import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { LayoutGrid, MessageSquare, TextSearch, UserRound } from 'lucide-react';
import { openMessageSearch } from '../features/live-chat';
import { type KeyboardEvent, useEffect, useId, useMemo, useState } from 'react';
import { Dialog, DialogContent } from '../components/ui/dialog';
import { Input } from '../components/ui/input';
import { api } from '../lib/api-client';
import { cn } from '../lib/cn';
import { contactAddress, contactLabel } from '@shared/contact-label';

/** The screens the switcher knows by name (what the sidebar and the settings menu offer). */
export const screens: { label: string; to: string; keywords?: string }[] = [
  { label: 'Live chat', to: '/live-chat?tab=open', keywords: 'inbox conversations chats' },
  { label: 'Live chat · Me', to: '/live-chat?tab=me', keywords: 'mine assigned to me' },
  { label: 'Audience', to: '/audience', keywords: 'contacts customers' },
  { label: 'Campaigns', to: '/campaigns', keywords: 'broadcast' },
  { label: 'Automation', to: '/automation', keywords: 'bots flows' },
  { label: 'Templates', to: '/templates' },
  { label: 'New template', to: '/templates/create' },
  { label: 'Settings', to: '/settings' },
  { label: 'Profile · Settings', to: '/settings/profile', keywords: 'sound name password' },
  { label: 'WhatsApp accounts · Settings', to: '/settings/whatsapp', keywords: 'numbers webhook health' },
  { label: 'Segments · Settings', to: '/settings/segments' },
  { label: 'Members · Settings', to: '/settings/members', keywords: 'team agents availability invite' },
  { label: 'Attributes · Settings', to: '/settings/attributes' },
  { label: 'Canned replies · Settings', to: '/settings/canned-replies', keywords: 'snippets templates quick replies' },
];

export interface SwitcherItem {
  kind: 'screen' | 'conversation' | 'contact' | 'search';
  id: string;
  label: string;
  detail?: string;
  go: () => Promise<string>;
}

function useDebounced(value: string, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Where a contact leads: its newest conversation, else the audience searched for it. */
async function contactTarget(contactId: string): Promise<string> {
  const page = await api('listContactConversations', { params: { contactId }, query: { limit: 1 } });
  const newest = page.items[0];
  return newest ? `/live-chat/${newest.id}?tab=${newest.isActive ? 'open' : 'closed'}` : `/audience`;
}

function useMatches(workspaceId: string, text: string): { items: SwitcherItem[]; loading: boolean } {
  const q = useDebounced(text.trim(), 150);
  // Message search opens over live chat: where the agent already is, else the open conversations.
  const here = useLocation();
  const liveChatHref = here.pathname.startsWith('/live-chat') ? here.href : '/live-chat?tab=open';
  const lower = q.toLowerCase();
  const remote = useQuery({
    queryKey: ['quick-switcher', workspaceId, q],
    enabled: q.length > 0,
    staleTime: 10_000,
    queryFn: async ({ signal }) => {
      const [open, closed, contacts] = await Promise.all([
        api('listConversations', { params: { workspaceId }, query: { tab: 'open', search: q, limit: 5 }, signal }),
        api('listConversations', { params: { workspaceId }, query: { tab: 'closed', search: q, limit: 3 }, signal }),
        api('listContacts', { params: { workspaceId }, query: { search: q, limit: 5 }, signal }),
      ]);
      return { conversations: [...open.items, ...closed.items], contacts: contacts.items };
    },
  });
  return useMemo(() => {
    const screenItems: SwitcherItem[] = screens
      .filter((s) => !lower || `${s.label} ${s.keywords ?? ''}`.toLowerCase().includes(lower))
      .map((s) => ({ kind: 'screen', id: s.to, label: s.label, go: async () => s.to }));
    // The words typed, searched in every conversation's messages (the live-chat message search).
    const searchItem = (words: string): SwitcherItem => ({
      kind: 'search',
      id: 'message-search',
      label: words ? `Search messages for “${words}”` : 'Search messages',
      detail: 'All conversations',
      go: async () => {
        openMessageSearch(words);
        return liveChatHref;
      },
    });
    if (!q) return { items: [...screenItems, searchItem('')], loading: false };
    const conversations: SwitcherItem[] = (remote.data?.conversations ?? []).map((c) => ({
      kind: 'conversation',
      id: c.id,
      label: contactLabel(c.Contact),
      detail: `${c.isActive ? 'Open' : 'Closed'} conversation · ${contactAddress(c.Contact)}`,
      go: async () => `/live-chat/${c.id}?tab=${c.isActive ? 'open' : 'closed'}`,
    }));
    const contacts: SwitcherItem[] = (remote.data?.contacts ?? []).map((c) => ({
      kind: 'contact',
      id: c.id,
      label: contactLabel(c),
      detail: `Contact · ${contactAddress(c)}`,
      go: () => contactTarget(c.id),
    }));
    return { items: [...conversations, ...contacts, ...screenItems, searchItem(q)], loading: remote.isFetching };
  }, [q, lower, remote.data, remote.isFetching, liveChatHref]);
}

const icons = { screen: LayoutGrid, conversation: MessageSquare, contact: UserRound, search: TextSearch };

/**
 * Ctrl/Cmd+K: type a name, Enter opens it. A combobox (input with a listbox of options, arrow keys move the
 * active option), so screen readers announce the choices.
 */
export function QuickSwitcher({ workspaceId, open, onOpenChange }: { workspaceId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const navigate = useNavigate();
  const listId = useId();
  const { items, loading } = useMatches(workspaceId, text);
  const current = Math.min(active, Math.max(0, items.length - 1));

  useEffect(() => {
    if (!open) setText('');
  }, [open]);
  useEffect(() => setActive(0), [text]);

  const choose = async (item: SwitcherItem | undefined) => {
    if (!item) return;
    const href = await item.go();
    onOpenChange(false);
    await navigate({ href });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (items.length) setActive((current + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void choose(items[current]);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent title="Go to…" description="A conversation, a contact or a screen, by name." className="max-w-lg">
          <Input
            autoFocus
            role="combobox"
            aria-expanded
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={items[current] ? `${listId}-${current}` : undefined}
            aria-label="Go to"
            placeholder="Type a name, a phone number or a screen"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <ul id={listId} role="listbox" aria-label="Matches" aria-busy={loading} className="mt-3 max-h-80 overflow-y-auto">
            {items.map((item, i) => {
              const Icon = icons[item.kind];
              return (
                <li
                  key={`${item.kind}:${item.id}`}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={i === current}
                  onMouseMove={() => setActive(i)}
                  onClick={() => void choose(item)}
                  className={cn('flex cursor-pointer items-center gap-3 rounded-md px-2.5 py-2 text-[13px]', i === current && 'bg-accent-soft text-accent-text')}
                >
                  <Icon className="size-4 shrink-0 text-fg-subtle" aria-hidden />
                  <span className="min-w-0 flex-1 truncate font-medium">{item.label}</span>
                  {item.detail && <span className="shrink-0 truncate text-[12px] text-fg-muted">{item.detail}</span>}
                </li>
              );
            })}
            {items.length === 0 && !loading && <li className="px-2.5 py-6 text-center text-[13px] text-fg-muted">Nothing matches “{text}”.</li>}
          </ul>
        </DialogContent>
      )}
    </Dialog>
  );
}
