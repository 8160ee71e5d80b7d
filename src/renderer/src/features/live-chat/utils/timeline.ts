/** The conversation view's rows: messages and events interleaved by time, with a separator for each day. */
import type { ConversationEvent, Message } from '@shared/schemas/entities';
import { dayKey } from './format';

export type TimelineItem =
  | { kind: 'day'; key: string; at: string }
  | { kind: 'message'; key: string; message: Message }
  | { kind: 'event'; key: string; event: ConversationEvent };

const byTime = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * Merges messages and events (each in any order) into one chronological list.
 * `since`: when older messages are not loaded yet, events before the oldest loaded message are left out so
 * they do not gather above it out of context; they appear once that part of the history is loaded.
 */
export function buildTimeline(
  messages: readonly Message[],
  events: readonly ConversationEvent[],
  since?: string | null,
): TimelineItem[] {
  const ms = [...messages].sort(byTime);
  const es = [...events].filter((e) => !since || e.createdAt >= since).sort(byTime);
  const out: TimelineItem[] = [];
  let lastDay = '';
  const pushDay = (at: string) => {
    const k = dayKey(at);
    if (k !== lastDay) {
      lastDay = k;
      out.push({ kind: 'day', key: `day:${k}`, at });
    }
  };
  let i = 0;
  let j = 0;
  while (i < ms.length || j < es.length) {
    const takeMessage = j >= es.length || (i < ms.length && byTime(ms[i], es[j]) <= 0);
    if (takeMessage) {
      const m = ms[i++];
      pushDay(m.createdAt);
      out.push({ kind: 'message', key: `m:${m.id}`, message: m });
    } else {
      const e = es[j++];
      pushDay(e.createdAt);
      out.push({ kind: 'event', key: `e:${e.id}`, event: e });
    }
  }
  return out;
}

/** Adds or replaces messages by id, keeping chronological order (live updates, older pages, sends). */
export function mergeMessages(current: readonly Message[], incoming: readonly Message[]): Message[] {
  if (incoming.length === 0) return current as Message[];
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort(byTime);
}

/**
 * The "New messages" divider: the first customer message received after the member's read mark
 * (`readAt` of the detail; null: never opened, so every customer message is new), or null when all are read.
 * Messages come oldest first.
 */
export function firstUnreadMessageId(messages: readonly Message[], readAt: string | null | undefined): string | null {
  if (readAt === undefined) return null; // an older server or the offline cache: not known
  const mark = readAt === null ? null : new Date(readAt).getTime();
  const first = messages.find((m) => m.creator === 'user' && (mark === null || new Date(m.createdAt).getTime() > mark));
  return first?.id ?? null;
}
