import { describe, expect, it } from 'vitest';
import { describeEvent } from '../../../src/renderer/src/features/live-chat/components/timeline-rows';
import { applyConversation, belongsToTab, placeConversation, type ConversationPages } from '../../../src/renderer/src/features/live-chat/utils/cache-updates';
import { buildTimeline, mergeMessages } from '../../../src/renderer/src/features/live-chat/utils/timeline';
import { event, ids, listEntry, message } from './fixtures';

const names = { member: (id: string | null | undefined) => (id === ids.member ? 'Ada Agent' : null), bot: () => 'Order bot' };

describe('buildTimeline', () => {
  it('interleaves messages and events by time with one separator per day', () => {
    const m1 = message({ text: 'day one', createdAt: '2026-11-20T10:00:00.000Z' });
    const m2 = message({ text: 'day two', createdAt: '2026-11-21T10:00:00.000Z' });
    const m3 = message({ text: 'later', createdAt: '2026-11-21T12:00:00.000Z' });
    const assigned = event({
      createdAt: '2026-11-21T11:00:00.000Z',
      data: { type: 'CONVERSATION_ASSIGNED', assignedByType: 'member', assignedById: ids.member, assigneeType: 'member', assigneeBotId: null, assigneeMemberId: ids.member },
    });
    const closed = event({ createdAt: '2026-11-21T13:00:00.000Z', data: { type: 'CONVERSATION_CLOSED', closedBy: 'user', userId: ids.member } });
    const items = buildTimeline([m3, m1, m2], [closed, assigned]);
    expect(items.map((i) => i.kind)).toEqual(['day', 'message', 'day', 'message', 'event', 'message', 'event']);
    expect(items.filter((i) => i.kind === 'message').map((i) => (i.kind === 'message' ? i.message.text : ''))).toEqual(['day one', 'day two', 'later']);
  });

  it('leaves out events older than the oldest loaded message while history is still paged', () => {
    const old = event({ createdAt: '2026-01-01T00:00:00.000Z', data: { type: 'CONVERSATION_CLOSED', closedBy: 'system', userId: null } });
    const m = message({ createdAt: '2026-11-21T10:00:00.000Z' });
    expect(buildTimeline([m], [old], m.createdAt).some((i) => i.kind === 'event')).toBe(false);
    expect(buildTimeline([m], [old], null).some((i) => i.kind === 'event')).toBe(true);
  });

  it('mergeMessages replaces by id (a status update) and keeps order', () => {
    const a = message({ createdAt: '2026-11-21T10:00:00.000Z', status: 'sent', creator: 'agent' });
    const b = message({ createdAt: '2026-11-21T11:00:00.000Z' });
    const merged = mergeMessages([b, a], [{ ...a, status: 'read' }]);
    expect(merged.map((m) => m.id)).toEqual([a.id, b.id]);
    expect(merged[0].status).toBe('read');
  });
});

describe('events in words', () => {
  it('describes assignment, closing and reopening', () => {
    expect(
      describeEvent(
        event({ data: { type: 'CONVERSATION_ASSIGNED', assignedByType: 'member', assignedById: ids.member, assigneeType: 'bot', assigneeBotId: 'b', assigneeMemberId: null } }),
        names,
      ),
    ).toBe('Assigned to Order bot by Ada Agent');
    expect(describeEvent(event({ data: { type: 'CONVERSATION_CLOSED', closedBy: 'user', userId: ids.member } }), names)).toBe('Closed by Ada Agent');
    expect(describeEvent(event({ data: { type: 'CONVERSATION_CLOSED', closedBy: 'system', userId: null } }), names)).toBe('Closed automatically');
    expect(describeEvent(event({ data: { type: 'CONVERSATION_REOPENED', reopenedBy: 'contact', memberId: null } }), names)).toBe('Reopened: the customer wrote');
  });
});

describe('conversation lists updated from events', () => {
  const page = (items: ReturnType<typeof listEntry>[], nextCursor: string | null = null): ConversationPages => ({ pages: [{ items, nextCursor }], pageParams: [undefined] });
  const entry = (id: string, at: string, over = {}) => listEntry({ id, lastMessageAt: at, ...over });

  it('tab membership follows the server’s rules', () => {
    const open = { isActive: true, assigneeMemberId: null, assigneeBotId: null };
    expect(belongsToTab(open, 'open', ids.member)).toBe(true);
    expect(belongsToTab(open, 'assigned', ids.member)).toBe(false);
    expect(belongsToTab({ ...open, assigneeBotId: 'b' }, 'assigned', ids.member)).toBe(true);
    expect(belongsToTab({ ...open, assigneeMemberId: ids.member }, 'me', ids.member)).toBe(true);
    expect(belongsToTab({ ...open, assigneeMemberId: ids.other }, 'me', ids.member)).toBe(false);
    expect(belongsToTab({ ...open, isActive: false }, 'closed', ids.member)).toBe(true);
    expect(belongsToTab({ ...open, isActive: false, assigneeMemberId: ids.member }, 'me', ids.member)).toBe(false);
  });

  it('a conversation with a new message moves to the top', () => {
    const data = page([entry('a', '2026-11-23T10:00:00.000Z'), entry('b', '2026-11-23T09:00:00.000Z')]);
    const next = placeConversation(data, entry('b', '2026-11-23T11:00:00.000Z'));
    expect(next.pages[0].items.map((e) => e.id)).toEqual(['b', 'a']);
  });

  it('closing moves a conversation from open to closed', () => {
    const open = page([entry('a', '2026-11-23T10:00:00.000Z')]);
    const closed = page([entry('z', '2026-11-22T10:00:00.000Z', { isActive: false })]);
    const now = entry('a', '2026-11-23T10:00:00.000Z', { isActive: false });
    expect(applyConversation(open, now, 'open', '', ids.member).pages[0].items).toHaveLength(0);
    expect(applyConversation(closed, now, 'closed', '', ids.member).pages[0].items.map((e) => e.id)).toEqual(['a', 'z']);
  });

  it('does not add an old conversation beyond the pages loaded so far', () => {
    const data = page([entry('a', '2026-11-23T10:00:00.000Z')], 'next-cursor');
    expect(placeConversation(data, entry('old', '2020-01-01T00:00:00.000Z')).pages[0].items.map((e) => e.id)).toEqual(['a']);
  });

  it('a search keeps only matching conversations', () => {
    const data = page([]);
    const e = entry('a', '2026-11-23T10:00:00.000Z');
    expect(applyConversation(data, e, 'open', 'grace', ids.member).pages[0].items).toHaveLength(1);
    expect(applyConversation(data, e, 'open', 'alan', ids.member).pages[0].items).toHaveLength(0);
  });
});
