import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Hourglass, Inbox, MessagesSquare, Search, TextSearch, WifiOff } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { plural } from '../../../lib/format';
import { useEffect, useMemo, useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { Input } from '../../../components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { useMember, useWorkspace, useWorkspaceId } from '../../../lib/queries/session';
import { useEventStreamStatus } from '../../../lib/workspace-events';
import { useConversationCounts } from '../api/count-conversations';
import { useBots } from '../../../lib/queries/bots';
import { useLiveChatSync } from '../hooks/use-live-chat-sync';
import { focusRequest, useLiveChatUi, usePanelOpen } from '../hooks/use-live-chat-ui';
import { useConversationActions, useConversationShortcuts } from '../hooks/use-conversation-shortcuts';
import { useTabs } from '../hooks/use-tabs';
import { cn } from '../../../lib/cn';
import { type LiveChatTab, liveChatTabs, parseTab, tabLabels } from '../utils/tabs';
import { ConversationList } from './conversation-list';
import { MentionsButton } from './mentions-button';
import { MessageSearchDialog, type MessageSearchChoice } from './message-search';
import { type Assignees, ConversationView } from './conversation-view';
import type { NameLookup } from './timeline-rows';

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Member and bot names for the list, the events and the assign menu. */
function usePeople(workspaceId: string): { names: NameLookup; assignees: Assignees } {
  const workspace = useWorkspace();
  const bots = useBots(workspaceId);
  return useMemo(() => {
    const members = (workspace.data?.Member ?? []).map((m) => ({ id: m.id, name: m.displayName || m.email || 'Member' }));
    const botList = (bots.data ?? []).map((b) => ({ id: b.id, name: b.title, isActive: b.isActive, whatsappAccountId: b.whatsappAccountId }));
    const memberById = new Map(members.map((m) => [m.id, m.name]));
    const botById = new Map(botList.map((b) => [b.id, b.name]));
    return {
      names: {
        member: (id) => (id ? (memberById.get(id) ?? null) : null),
        bot: (id) => (id ? (botById.get(id) ?? null) : null),
      },
      assignees: { members, bots: botList },
    };
  }, [workspace.data, bots.data]);
}

/**
 * An empty tab says where the conversations are: the default Closed tab is often empty at the start of a day,
 * so it names the other tabs that hold conversations, with links to them.
 */
function EmptyTab({ tab, counts }: { tab: LiveChatTab; counts?: Record<LiveChatTab, number> }) {
  const others = liveChatTabs.filter((t) => t !== tab && (counts?.[t] ?? 0) > 0);
  const total = others.reduce((sum, t) => sum + (counts?.[t] ?? 0), 0);
  if (!counts || others.length === 0) {
    return <EmptyState icon={Inbox} title="Nothing here" description="Conversations of this tab show up here as customers write." />;
  }
  return (
    <EmptyState
      icon={Inbox}
      title={tab === 'me' ? 'Nothing assigned to you' : `No ${tabLabels[tab].toLowerCase()} conversations`}
      description={`${plural(total, 'conversation')} ${total === 1 ? 'waits' : 'wait'} in other tabs:`}
      action={
        <ul className="flex flex-wrap justify-center gap-2">
          {others.map((t) => (
            <li key={t}>
              <Button asChild variant="secondary" size="sm">
                <Link to="/live-chat" search={{ tab: t }}>
                  {tabLabels[t]} ({counts[t]})
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      }
    />
  );
}

/**
 * Live chat: the inbox (tabs me / assigned / open / closed with counts, search, the conversation list) beside
 * the open conversation. The list stays current through the workspace event stream.
 */
export function LiveChatLayout({ conversationId }: { conversationId?: string }) {
  const workspaceId = useWorkspaceId();
  const me = useMember();
  const search = useSearch({ strict: false }) as { tab?: unknown };
  const tab = parseTab(search.tab);
  const navigate = useNavigate();
  const { search: text, setSearch } = useLiveChatUi();
  const debounced = useDebounced(text.trim(), 250);
  const counts = useConversationCounts(workspaceId);
  const { names, assignees } = usePeople(workspaceId);
  useLiveChatSync(workspaceId, me.id);
  const stream = useEventStreamStatus(workspaceId);
  const sort = useLiveChatUi((s) => s.sort);
  const setSort = useLiveChatUi((s) => s.setSort);
  const actions = useConversationActions(workspaceId, tab, debounced, conversationId, me.id, sort);
  useConversationShortcuts(actions);
  // Below 1280 px an open contact panel takes the list's room, so the conversation keeps its width.
  const panelOpen = usePanelOpen();
  const listGivesWay = !!conversationId && panelOpen;

  // Escape in a conversation: back to the list, focus on that conversation's row (or the list's first).
  const backToList = (id: string) => {
    void navigate({ to: '/live-chat', search: { tab } }).then(() => {
      requestAnimationFrame(() => {
        const list = document.querySelector<HTMLElement>('[data-testid="conversation-scroller"]');
        const row = list?.querySelector<HTMLElement>(`[data-conversation-id="${id}"]`) ?? list?.querySelector<HTMLElement>('[data-index]');
        (row ?? document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'))?.focus();
      });
    });
  };

  // Workspace message search: a chosen hit opens its conversation, which then brings the message into view.
  const messageSearch = useLiveChatUi((s) => s.messageSearch);
  const setMessageSearch = useLiveChatUi((s) => s.setMessageSearch);
  const setJumpTo = useLiveChatUi((s) => s.setJumpTo);
  const openHit = (hit: MessageSearchChoice) => {
    setJumpTo(hit);
    setMessageSearch(null);
    // As when opened with Enter from the list: the agent reads there and may answer.
    focusRequest.conversationId = hit.conversationId;
    void navigate({ to: '/live-chat/$conversationId', params: { conversationId: hit.conversationId }, search: { tab } });
  };

  const setTab = useTabs(me.id, tab, conversationId, counts.data);

  return (
    <div className="flex h-full min-h-0">
      <MessageSearchDialog workspaceId={workspaceId} query={messageSearch} onOpenChange={(open) => !open && setMessageSearch(null)} onChoose={openHit} />
      <div className={cn('w-[320px] shrink-0 flex-col border-r border-border bg-surface xl:flex xl:w-[360px]', listGivesWay ? 'hidden' : 'flex')}>
        <div className="flex h-14 shrink-0 items-center justify-between px-4">
          <h1 className="text-[17px] font-semibold whitespace-nowrap text-fg">Live chat</h1>
          <div className="flex items-center gap-2">
            {stream === 'reconnecting' && (
              // An icon with its words for screen readers and a tooltip: the 320 px list header has no room for them.
              <span className="inline-flex items-center text-warning-text" role="status" title="Reconnecting…">
                <WifiOff className="size-4" aria-hidden />
                <span className="sr-only">Reconnecting…</span>
              </span>
            )}
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label="Search messages"
              title="Search messages in every conversation"
              onClick={() => setMessageSearch('')}
              data-testid="message-search-open"
            >
              <TextSearch aria-hidden />
            </Button>
            <MentionsButton workspaceId={workspaceId} names={names} />
            <Button
              variant={sort === 'waiting' ? 'secondary' : 'ghost'}
              size="sm"
              aria-pressed={sort === 'waiting'}
              title="Only conversations waiting for an answer, longest waiting first"
              onClick={() => setSort(sort === 'waiting' ? 'recent' : 'waiting')}
            >
              <Hourglass aria-hidden /> Longest waiting
            </Button>
          </div>
        </div>
        <div className="px-3 pb-2">
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-fg-subtle" aria-hidden />
            <Input
              type="search"
              value={text}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Name, phone or @username"
              aria-label="Search conversations"
              className="h-9 rounded-lg bg-bg pl-8"
            />
          </div>
        </div>
        <Tabs value={tab} onValueChange={(v) => setTab(parseTab(v))} className="flex min-h-0 flex-1 flex-col" activationMode="manual">
          <div className="px-3 pb-2">
            <TabsList className="flex w-full" aria-label="Conversation tabs">
              {liveChatTabs.map((t) => {
                const n = counts.data?.[t];
                return (
                  // Named "Open (3)": the visible label, then the exact count (the badge may abbreviate it as 1k).
                  <TabsTrigger key={t} value={t} className="flex-auto justify-center gap-1 px-1 text-[12.5px]">
                    {tabLabels[t]}
                    {n !== undefined && (
                      <>
                        <span className="rounded-full bg-bg px-1 text-[10.5px] text-fg-muted tabular-nums" aria-hidden>
                          {n > 999 ? `${Math.floor(n / 1000)}k` : n}
                        </span>
                        <span className="sr-only"> ({n})</span>
                      </>
                    )}
                  </TabsTrigger>
                );
              })}
            </TabsList>
          </div>
          {/* One panel per tab so every tab's aria-controls names an element; only the current one has content. */}
          {liveChatTabs.map((t) => (
            <TabsContent key={t} value={t} forceMount hidden={t !== tab} className="flex min-h-0 flex-1 flex-col data-[state=inactive]:hidden">
              {t === tab && (
                <ConversationList
                  key={`${t}|${debounced}|${sort}`}
                  workspaceId={workspaceId}
                  tab={t}
                  search={debounced}
                  activeId={conversationId}
                  names={names}
                  sort={sort}
                  emptyState={<EmptyTab tab={t} counts={counts.data} />}
                />
              )}
            </TabsContent>
          ))}
        </Tabs>
      </div>
      {conversationId ? (
        <ConversationView
          key={conversationId}
          conversationId={conversationId}
          workspaceId={workspaceId}
          names={names}
          assignees={assignees}
          onBack={() => backToList(conversationId)}
          actions={actions}
        />
      ) : (
        <div className="flex flex-1 items-center justify-center bg-bg">
          <EmptyState
            icon={MessagesSquare}
            title="Select a conversation"
            description="Pick a conversation on the left to read and reply. New messages arrive here live."
          />
        </div>
      )}
    </div>
  );
}
