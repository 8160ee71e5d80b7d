/** The conversation's header: who it is with, its state, Assign, Close/Reopen, More, and the contact panel toggle. */
import { Bot, Check, CircleCheck, Ellipsis, PanelRight, RotateCcw, SkipForward, UserRound, UserRoundX } from 'lucide-react';
import type { RefObject } from 'react';
import type { ConversationDetail } from '@shared/schemas/entities';
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
import { TruncatedText } from '../../../components/ui/tooltip';
import { useOfflineReason } from '../../../lib/connectivity';
import { useMember } from '../../../lib/queries/session';
import { usePatchConversation } from '../api/patch-conversation';
import type { ConversationActions } from '../hooks/use-conversation-shortcuts';
import type { NameLookup } from './timeline-rows';
import { contactAddress, contactLabel } from '@shared/contact-label';

export interface Assignees {
  members: { id: string; name: string }[];
  bots: { id: string; name: string; isActive?: boolean; whatsappAccountId?: string | null }[];
}

/** A conversation can be handed only to a bot that runs (active) on the conversation's own number. */
function assignableBots(bots: Assignees['bots'], whatsappAccountId: string | null) {
  return bots.filter((b) => b.isActive !== false && (b.whatsappAccountId === undefined || b.whatsappAccountId === whatsappAccountId));
}

export function ConversationHeader({
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
  const contactName = contactLabel(detail.Contact);
  const assignee = detail.assigneeBotId ? names.bot(detail.assigneeBotId) : detail.assigneeMemberId ? names.member(detail.assigneeMemberId) : null;
  const bots = assignableBots(assignees.bots, detail.whatsappAccountId);

  return (
    // A container (not the window) decides what fits: with the contact panel open the header is narrower at
    // any window size. Below 36rem of header the Assign label and Close go into the "More" menu before the
    // name and the assignee give way.
    <header className="@container/header flex h-14 shrink-0 items-center gap-3 border-b border-border bg-surface px-4">
      <Avatar name={detail.Contact.name ?? (detail.Contact.username || detail.Contact.phoneNumber?.slice(-2) || '?')} className="size-9 shrink-0" />
      <div className="min-w-[10rem] flex-1">
        <div className="flex min-w-0 items-center gap-2">
          <TruncatedText as="h1" text={contactName} className="text-[15px] font-semibold text-fg" />
          <Badge tone={detail.isActive ? 'green' : 'neutral'} className="shrink-0">
            {detail.isActive ? 'Open' : 'Closed'}
          </Badge>
          {detail.needsPerson && !assignee && (
            <Badge tone="red" className="shrink-0" title="A bot could not finish: this conversation waits for a person">
              Needs a person
            </Badge>
          )}
        </div>
        <p className="flex min-w-0 text-[12px] text-fg-muted">
          {detail.Contact.name && <span className="shrink-0 whitespace-pre">{`${contactAddress(detail.Contact)} · `}</span>}
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
