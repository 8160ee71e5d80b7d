import { Search } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, type ReactNode, type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ConversationDetail, Message } from '@shared/schemas/entities';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-client';
import { campaignSenderName, useCampaignNames } from '../../../lib/queries/campaign-names';
import { useMember } from '../../../lib/queries/session';
import { DETAIL_MESSAGE_LIMIT, useConversation } from '../api/get-conversation';
import { useMarkMentionsRead, useMentionCount } from '../api/list-mentions';
import { useOlderMessages } from '../api/list-older-messages';
import { latestInboundId, useMarkRead } from '../api/mark-read';
import type { ConversationActions } from '../hooks/use-conversation-shortcuts';
import { conversationCommands, focusRequest, useLiveChatUi, usePanelOpen } from '../hooks/use-live-chat-ui';
import { useOpenWindow } from '../hooks/use-open-window';
import { usePresence } from '../hooks/use-presence';
import { useSearchInConversation } from '../hooks/use-search-in-conversation';
import { buildTimeline, firstUnreadMessageId, mergeMessages } from '../utils/timeline';
import { lastInboundAt } from '../utils/window';
import { Composer, type ComposerHandle } from './composer';
import { type Assignees, ConversationHeader } from './conversation-header';
import { ConversationSearch } from './conversation-search';
import { ContactSidebar } from './contact-sidebar';
import { InteractiveButton } from './interactive-composer';
import { MessageTimeline, type MessageTimelineHandle } from './message-timeline';
import { PresenceBar } from './presence-bar';
import type { NameLookup } from './timeline-rows';
import { contactLabel } from '@shared/contact-label';

export type { Assignees } from './conversation-header';

/**
 * Messages, events and composer of one conversation; keyed by conversation so scroll state starts over.
 * Ctrl/Cmd+F (or the search button beside the composer's tabs) searches inside it.
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
  // A campaign's message is named as the campaign's, not as a bot's.
  const campaignIds = useMemo(() => all.flatMap((m) => (m.campaignId ? [m.campaignId] : [])), [all]);
  const campaignNames = useCampaignNames(campaignIds);
  const nameOf = useCallback(
    (m: Message) => (m.campaignId ? campaignSenderName(campaignNames.get(m.campaignId)) : senderName(m)),
    [campaignNames, senderName],
  );
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
  const w = useOpenWindow(inbound);
  const { searching, setSearching, search, setSearch, onJump, closeSearch } = useSearchInConversation({
    conversationId: detail.id,
    all,
    items,
    loadOlder,
    timeline,
    composer,
  });

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
        senderName={nameOf}
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
    // A message sent from the business's phone has no member: its "Sent from the phone" mark says who.
    (m: Message) => (m.creator === 'bot' ? 'Bot' : m.creator === 'agent' && !m.sentFromPhone ? (names.member(m.memberId) ?? 'Agent') : null),
    [names],
  );

  // Presence: who else views or types here, and the customer's typing indicator while I type.
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
      <section className="flex min-w-0 flex-1 flex-col" aria-label={`Conversation with ${contactLabel(detail.Contact)}`} onInput={onInput}>
        <ConversationHeader
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
