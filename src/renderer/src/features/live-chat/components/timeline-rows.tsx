import { CircleCheck, RotateCcw, UserRoundCheck } from 'lucide-react';
import type { ConversationEvent } from '@shared/schemas/entities';
import { formatDay, formatFull, formatTime } from '../utils/format';

export interface NameLookup {
  member: (id: string | null | undefined) => string | null;
  bot: (id: string | null | undefined) => string | null;
}

export function DaySeparator({ at }: { at: string }) {
  return (
    <div className="flex justify-center px-4 py-2" role="separator" aria-label={formatDay(at)}>
      <span className="rounded-md bg-surface/90 px-3 py-1 text-[12px] font-medium text-fg-muted shadow-[0_1px_0.5px_rgba(11,20,26,0.13)]">
        {formatDay(at)}
      </span>
    </div>
  );
}

/** Describes an event of the conversation in words. */
export function describeEvent(e: ConversationEvent, names: NameLookup): string {
  const d = e.data as ConversationEvent['data'] & Record<string, unknown>;
  switch (d.type) {
    case 'CONVERSATION_ASSIGNED': {
      const to = d.assigneeType === 'bot' ? (names.bot(d.assigneeBotId) ?? 'a bot') : (names.member(d.assigneeMemberId) ?? 'a member');
      const by =
        d.assignedByType === 'system' ? 'automatically' : d.assignedByType === 'bot' ? `by ${names.bot(d.assignedById) ?? 'a bot'}` : `by ${names.member(d.assignedById) ?? 'a member'}`;
      return `Assigned to ${to} ${by}`;
    }
    case 'CONVERSATION_CLOSED': {
      const by = d.closedBy === 'system' ? 'automatically' : d.closedBy === 'bot' ? 'by a bot' : `by ${names.member(d.userId) ?? 'a member'}`;
      return `Closed ${by}`;
    }
    default: {
      if ((d.type as string) === 'CONVERSATION_REOPENED') {
        const reopenedBy = d.reopenedBy as string | undefined;
        if (reopenedBy === 'contact') return 'Reopened: the customer wrote';
        return `Reopened by ${names.member(d.memberId as string | null) ?? 'a member'}`;
      }
      return 'Conversation updated';
    }
  }
}

export function EventRow({ event, names }: { event: ConversationEvent; names: NameLookup }) {
  const Icon = event.type === 'CONVERSATION_CLOSED' ? CircleCheck : event.type === 'CONVERSATION_ASSIGNED' ? UserRoundCheck : RotateCcw;
  const text = describeEvent(event, names);
  return (
    <div className="flex justify-center px-4 py-1.5" data-event-id={event.id}>
      <p
        className="inline-flex max-w-[90%] items-center gap-1.5 rounded-full bg-info-soft/90 px-3 py-1 text-[12px] text-info-text"
        title={formatFull(event.createdAt)}
      >
        <Icon className="size-3.5 shrink-0" aria-hidden />
        <span>{text}</span>
        <span className="text-info-text/70">· {formatTime(event.createdAt)}</span>
      </p>
    </div>
  );
}
