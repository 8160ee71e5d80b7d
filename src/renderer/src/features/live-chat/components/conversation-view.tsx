import { Search } from 'lucide-react';
import { Bot, Check, CircleCheck, Ellipsis, PanelRight, RotateCcw, SkipForward, UserRound, UserRoundX } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, type ReactNode, type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ConversationDetail, Message } from '@shared/schemas/entities';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { TruncatedText } from '../../../components/ui/tooltip';
import { errorText } from '../../../lib/api-client';
import { useOfflineReason } from '../../../lib/connectivity';
import { useMember } from '../../../lib/queries/session';
import { DETAIL_MESSAGE_LIMIT, useConversation } from '../api/get-conversation';
import { useOlderMessages } from '../api/list-older-messages';
import { latestInboundId, useMarkRead } from '../api/mark-read';
import { usePatchConversation } from '../api/patch-conversation';
import { buildTimeline, firstUnreadMessageId, mergeMessages } from '../utils/timeline';
import { customerWindow, lastInboundAt } from '../utils/window';
import { conversationCommands, focusRequest, useLiveChatUi, usePanelOpen } from '../hooks/use-live-chat-ui';
import type { ConversationActions } from '../hooks/use-conversation-shortcuts';
import { Composer, type ComposerHandle } from './composer';
import { ConversationSearch, type SearchState } from './conversation-search';
import { useMarkMentionsRead, useMentionCount } from '../api/list-mentions';
import { ContactSidebar } from './contact-sidebar';
import { PresenceBar } from './presence-bar';
import { usePresence } from '../hooks/use-presence';
import { MessageTimeline, type MessageTimelineHandle } from './message-timeline';
import { InteractiveButton } from './interactive-composer';
import type { NameLookup } from './timeline-rows';

export interface Assignees {
  members: { id: string; name: string }[];
  bots: { id: string; name: string; isActive?: boolean; whatsappAccountId?: string | null }[];
}

/** A conversation can be handed only to a bot that runs (active) on the conversation's own number. */
export function assignableBots(bots: Assignees['bots'], whatsappAccountId: string | null) {
  return bots.filter((b) => b.isActive !== false && (b.whatsappAccountId === undefined || b.whatsappAccountId === whatsappAccountId));
}

function Header({
  detail,
  workspaceId,
  names,
  assignees,
  sidebarOpen,
  onToggleSidebar,
  sidebarToggle,
  actions,
}: {
  detail: ConversationDetail;
  workspaceId: string;
  names: NameLookup;
  assignees: Assignees;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  sidebarToggle: RefObject<HTMLButtonElement | null>;
  actions?: ConversationActions;
}) {
  const patch = usePatchConversation(detail.id, workspaceId);
  const me = useMember();
  const offline = useOfflineReason();
  const contactName = detail.Contact.name || detail.Contact.phoneNumber;
  const assignee = detail.assigneeBotId ? names.bot(detail.assigneeBotId) : detail.assigneeMemberId ? names.member(detail.assigneeMemberId) : null;
  const bots = assignableBots(assignees.bots, detail.whatsappAccountId);

  return (
    // A container (not the window) decides what fits: with the contact panel open the header is narrower at
    // any window size. Below 36rem of header the Assign label and Close go into the "More" menu before the
    // name and the assignee give way.
    <header className="@container/header flex h-14 shrink-0 items-center gap-3 border-b border-border bg-surface px-4">
      <Avatar name={detail.Contact.name ?? detail.Contact.phoneNumber.slice(-2)} className="size-9 shrink-0" />
      <div className="min-w-[10rem] flex-1">
        <div className="flex min-w-0 items-center gap-2">
          <TruncatedText as="h1" text={contactName} className="text-[15px] font-semibold text-fg" />
          <Badge tone={detail.isActive ? 'green' : 'neutral'} className="shrink-0">
            {detail.isActive ? 'Open' : 'Closed'}
          </Badge>
        </div>
        <p className="flex min-w-0 text-[12px] text-fg-muted">
          {detail.Contact.name && <span className="shrink-0 whitespace-pre">{`${detail.Contact.phoneNumber} · `}</span>}
          <TruncatedText text={assignee ? `Assigned to ${assignee}` : 'Unassigned'} />
        </p>
      </div>
      <span title={offline ?? undefined} className="inline-flex shrink-0 gap-2">
      <DropdownMenu>
        <DropdownMenuTrigger asChild disabled={!!offline}>
          <Button
            variant="secondary"
            loading={patch.isPending && patch.variables?.isActive === undefined}
            aria-label={`Assign (currently ${assignee ?? 'unassigned'})`}
            title={`Assign (currently ${assignee ?? 'unassigned'})`}
          >
            {detail.assigneeBotId ? <Bot aria-hidden /> : <UserRound aria-hidden />}
            <span className="hidden max-w-32 truncate @min-[44rem]/header:inline">{assignee ?? 'Assign'}</span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          {me.id !== detail.assigneeMemberId && (
            <DropdownMenuItem onSelect={() => patch.mutate({ assigneeMemberId: me.id, assigneeBotId: null })}>
              <UserRound className="size-4" aria-hidden /> Assign to me
            </DropdownMenuItem>
          )}
          <DropdownMenuLabel>Members</DropdownMenuLabel>
          {assignees.members.map((m) => (
            <DropdownMenuItem key={m.id} onSelect={() => patch.mutate({ assigneeMemberId: m.id, assigneeBotId: null })}>
              <Avatar name={m.name} className="size-5 text-[9px]" />
              <span className="truncate">{m.name}</span>
              {detail.assigneeMemberId === m.id && <Check className="ml-auto size-4 text-accent" aria-label="current" />}
            </DropdownMenuItem>
          ))}
          {bots.length > 0 && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuLabel>Bots</DropdownMenuLabel>
              {bots.map((b) => (
                <DropdownMenuItem key={b.id} onSelect={() => patch.mutate({ assigneeBotId: b.id, assigneeMemberId: null })}>
                  <Bot className="size-4" aria-hidden />
                  <span className="truncate">{b.name}</span>
                  {detail.assigneeBotId === b.id && <Check className="ml-auto size-4 text-accent" aria-label="current" />}
                </DropdownMenuItem>
              ))}
            </>
          )}
          {(detail.assigneeMemberId || detail.assigneeBotId) && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => patch.mutate({ assigneeMemberId: null, assigneeBotId: null })}>
                <UserRoundX className="size-4" aria-hidden /> Unassign
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      {detail.isActive ? (
        <Button variant="primary" className="hidden @min-[36rem]/header:inline-flex" disabled={!!offline} onClick={() => patch.mutate({ isActive: false })} loading={patch.isPending && patch.variables?.isActive === false}>
          <CircleCheck aria-hidden /> Close
        </Button>
      ) : (
        <Button variant="secondary" className="hidden @min-[36rem]/header:inline-flex" disabled={!!offline} onClick={() => patch.mutate({ isActive: true })} loading={patch.isPending && patch.variables?.isActive === true}>
          <RotateCcw aria-hidden /> Reopen
        </Button>
      )}
      <DropdownMenu>
        <DropdownMenuTrigger asChild disabled={!!offline}>
          <Button variant="ghost" size="icon" aria-label="More conversation actions" title="More conversation actions">
            <Ellipsis aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          {detail.isActive ? (
            <DropdownMenuItem onSelect={() => patch.mutate({ isActive: false })}>
              <CircleCheck className="size-4" aria-hidden /> Close
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem onSelect={() => patch.mutate({ isActive: true })}>
              <RotateCcw className="size-4" aria-hidden /> Reopen
            </DropdownMenuItem>
          )}
          {detail.isActive && actions && (
            <DropdownMenuItem onSelect={() => void actions.closeAndNext()}>
              <SkipForward className="size-4" aria-hidden /> Close and open next
              <kbd className="ml-auto text-[11px] text-fg-subtle">E</kbd>
            </DropdownMenuItem>
          )}
          {me.id !== detail.assigneeMemberId && (
            <DropdownMenuItem onSelect={() => patch.mutate({ assigneeMemberId: me.id, assigneeBotId: null })}>
              <UserRound className="size-4" aria-hidden /> Assign to me
              <kbd className="ml-auto text-[11px] text-fg-subtle">A</kbd>
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      </span>
      <Button
        ref={sidebarToggle}
        variant="ghost"
        size="icon"
        onClick={onToggleSidebar}
        aria-pressed={sidebarOpen}
        aria-label={sidebarOpen ? 'Hide contact details' : 'Show contact details'}
      >
        <PanelRight />
      </Button>
    </header>
  );
}

/**
 * Messages, events and composer of one conversation; keyed by conversation so scroll state starts over.
 * Ctrl/Cmd+F (or the search button beside the composer's tabs) searches inside it (issue 19).
 */
function Body({
  detail,
  workspaceId,
  names,
  senderName,
  composer,
  members,
  extraActions,
}: {
  detail: ConversationDetail;
  workspaceId: string;
  names: NameLookup;
  senderName: (m: Message) => string | null;
  composer: RefObject<ComposerHandle | null>;
  /** Members to @mention in a note. */
  members?: { id: string; name: string }[];
  /** Composer buttons of other features (interactive messages). */
  extraActions?: ReactNode;
}) {
  const { older, hasMore, loading, loadOlder } = useOlderMessages(detail.id, detail.Message.length >= DETAIL_MESSAGE_LIMIT);
  const all = useMemo(() => mergeMessages(older, detail.Message), [older, detail.Message]);
  const items = useMemo(
    () => buildTimeline(all, detail.ConversationEvent, hasMore ? all[0]?.createdAt : null),
    [all, detail.ConversationEvent, hasMore],
  );
  const timeline = useRef<MessageTimelineHandle>(null);
  // "New messages" above the first customer message the member had not read when the conversation opened; it
  // stays while they read it (opening marks it read at once) and goes with their reply or the next opening.
  const [firstUnreadId, setFirstUnreadId] = useState(() => firstUnreadMessageId(detail.Message, detail.readAt));
  useMarkRead(detail.id, workspaceId, latestInboundId(detail.Message));
  const unreadMentions = (useMentionCount(workspaceId).data?.unread ?? 0) > 0;
  useMarkMentionsRead(detail.id, workspaceId, unreadMentions);
  const inbound = (detail as { lastInboundAt?: string | null }).lastInboundAt ?? lastInboundAt(all);
  const [now, setNow] = useState(() => new Date());
  const w = customerWindow(inbound, now);
  // Re-evaluate the window when it is due to close, so the composer switches without a reload.
  const closesAtMs = w.open ? (w.closesAt?.getTime() ?? null) : null;
  useEffect(() => {
    if (closesAtMs === null) return;
    const ms = closesAtMs - Date.now();
    if (ms <= 0 || ms >= 2 ** 31 - 1) return;
    const timer = setTimeout(() => setNow(new Date()), ms + 500);
    return () => clearTimeout(timer);
  }, [closesAtMs]);

  // Search inside the conversation: a match older than what is loaded pages back until it is there.
  const [searching, setSearching] = useState(false);
  const [search, setSearch] = useState<SearchState>({ terms: [], matchId: null });
  const allRef = useRef(all);
  allRef.current = all;
  const [jumpTo, setJumpTo] = useState<string | null>(null);
  const onJump = useCallback(
    async (match: { id: string; createdAt: string }) => {
      setJumpTo(match.id);
      let oldest = allRef.current[0];
      while (oldest && match.createdAt < oldest.createdAt) {
        const page = await loadOlder(oldest.id);
        if (!page || page.length === 0) break;
        oldest = page[page.length - 1];
      }
    },
    [loadOlder],
  );
  // A workspace search result chosen for this conversation: mark its words and bring the message into view.
  const requested = useLiveChatUi((s) => (s.jumpTo?.conversationId === detail.id ? s.jumpTo : null));
  useEffect(() => {
    if (!requested) return;
    useLiveChatUi.getState().setJumpTo(null);
    setSearch({ terms: requested.terms, matchId: requested.messageId });
    void onJump({ id: requested.messageId, createdAt: requested.createdAt });
  }, [requested, onJump]);
  useEffect(() => {
    if (!jumpTo || !all.some((m) => m.id === jumpTo)) return;
    const frame = requestAnimationFrame(() => {
      if (timeline.current?.scrollToMessage(jumpTo)) setJumpTo(null);
    });
    return () => cancelAnimationFrame(frame);
  }, [jumpTo, all, items]);
  const closeSearch = useCallback(() => {
    setSearching(false);
    setSearch({ terms: [], matchId: null });
    requestAnimationFrame(() => composer.current?.focus());
  }, [composer]);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        setSearching(true);
        requestAnimationFrame(() => document.getElementById(`conversation-search-${detail.id}`)?.focus());
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [detail.id]);

  const onLoadOlder = useCallback((id: string) => void loadOlder(id), [loadOlder]);
  // A reply answers what was new: the divider has done its job.
  const afterSend = () => {
    setFirstUnreadId(null);
    timeline.current?.scrollToBottom();
  };
  const contact = detail.Contact;
  return (
    <>
      {searching && (
        <ConversationSearch
          conversationId={detail.id}
          onChange={setSearch}
          onJump={(m) => void onJump(m)}
          onClose={closeSearch}
        />
      )}
      <MessageTimeline
        ref={timeline}
        items={items}
        names={names}
        senderName={senderName}
        hasOlder={hasMore}
        loadingOlder={loading}
        onLoadOlder={onLoadOlder}
        highlight={search.terms}
        currentMatchId={search.matchId}
        firstUnreadId={firstUnreadId}
      />
      <Composer
        ref={composer}
        conversationId={detail.id}
        workspaceId={workspaceId}
        window={w}
        contact={contact}
        members={members}
        extraActions={extraActions ?? (w.open ? <InteractiveButton conversationId={detail.id} onSent={afterSend} /> : undefined)}
        tools={
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-pressed={searching}
            title="Search in this conversation (Ctrl+F)"
            onClick={() => (searching ? closeSearch() : setSearching(true))}
            data-testid="conversation-search-toggle"
          >
            <Search aria-hidden /> Search
          </Button>
        }
        onSent={afterSend}
      />
    </>
  );
}

export function ConversationView({
  conversationId,
  workspaceId,
  names,
  assignees,
  onBack,
  actions,
}: {
  conversationId: string;
  workspaceId: string;
  names: NameLookup;
  assignees: Assignees;
  /** Escape: back to the list (the layout moves focus to this conversation's row). */
  onBack?: () => void;
  /** Close-and-next and friends (the same functions as the keyboard shortcuts). */
  actions?: ConversationActions;
}) {
  const query = useConversation(conversationId);
  // On narrower screens the conversation gets the room; the contact details open on demand.
  const sidebarOpen = usePanelOpen();
  const setSidebarOpen = useLiveChatUi((s) => s.setPanelOpen);
  const composer = useRef<ComposerHandle>(null);
  const sidebarToggle = useRef<HTMLButtonElement>(null);
  const loaded = query.isSuccess;

  // Opened from the keyboard: the agent wants to write, so the composer (or the template picker) takes focus.
  useEffect(() => {
    if (!loaded || focusRequest.conversationId !== conversationId) return;
    focusRequest.conversationId = null;
    composer.current?.focus();
  }, [loaded, conversationId]);
  // The R shortcut (and anything else that wants the composer) reaches it through here.
  useEffect(() => {
    const focus = () => composer.current?.focus();
    conversationCommands.focusComposer = focus;
    return () => {
      if (conversationCommands.focusComposer === focus) conversationCommands.focusComposer = null;
    };
  }, []);

  const hideSidebar = () => {
    setSidebarOpen(false);
    // The panel's own close button is gone: focus the header toggle that brings it back.
    requestAnimationFrame(() => sidebarToggle.current?.focus());
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Escape inside menus and dialogs (rendered in portals, outside this element) belongs to them.
    if (e.key !== 'Escape' || e.defaultPrevented || !e.currentTarget.contains(e.target as Node)) return;
    e.preventDefault();
    // The contact panel first (it is what the agent opened last), then the conversation.
    if (sidebarOpen && !e.currentTarget.querySelector('section')?.contains(e.target as Node)) hideSidebar();
    else if (sidebarOpen && window.innerWidth < 1280) hideSidebar();
    else onBack?.();
  };
  const senderName = useCallback(
    (m: Message) => (m.creator === 'bot' ? 'Bot' : m.creator === 'agent' ? (names.member(m.memberId) ?? 'Agent') : null),
    [names],
  );

  // Presence (issue 19): who else views or types here, and the customer's typing indicator while I type.
  const meId = useMember().id;
  const { present, typing } = usePresence(workspaceId, conversationId, meId);
  const onInput = (e: FormEvent<HTMLElement>) => {
    if ((e.target as HTMLElement).closest('textarea, [contenteditable="true"]')) typing();
  };

  if (query.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center bg-chat-bg">
        <Spinner label="Loading conversation" className="size-6" />
      </div>
    );
  }
  if (query.isError) {
    return <EmptyState className="flex-1" title="This conversation could not be loaded" description={errorText(query.error)} />;
  }
  const detail = query.data;
  return (
    // Below 1280 px the open contact panel takes the conversation list's place (live-chat-layout), never the chat's.
    <div className="relative flex min-h-0 min-w-0 flex-1" onKeyDown={onKeyDown}>
      <section className="flex min-w-0 flex-1 flex-col" aria-label={`Conversation with ${detail.Contact.name || detail.Contact.phoneNumber}`} onInput={onInput}>
        <Header
          detail={detail}
          workspaceId={workspaceId}
          names={names}
          assignees={assignees}
          sidebarOpen={sidebarOpen}
          onToggleSidebar={() => setSidebarOpen(!sidebarOpen)}
          sidebarToggle={sidebarToggle}
          actions={actions}
        />
        <PresenceBar present={present} names={names} />
        <Body key={detail.id} detail={detail} workspaceId={workspaceId} names={names} senderName={senderName} composer={composer} members={assignees.members} />
      </section>
      {sidebarOpen && (
        <ContactSidebar
          contact={detail.Contact}
          conversationId={detail.id}
          workspaceId={workspaceId}
          onClose={hideSidebar}
          className="w-72 xl:w-80"
        />
      )}
    </div>
  );
}
