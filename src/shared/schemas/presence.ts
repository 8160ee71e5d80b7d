/**
 * Presence: who else views or types in a conversation. Short-lived and never
 * stored: a member's client says so (POST /conversation/{id}/presence), every server process fans it out
 * (PostgreSQL NOTIFY) to the workspace's event streams as `event: presence` (no `id:`, so it never moves a
 * client's resume point), and clients forget a signal after its time to live.
 */
import * as z from '../zod';
import { Id, Timestamp } from './common';

export const PresenceState = z.enum(['viewing', 'typing', 'left']);
export type PresenceState = z.infer<typeof PresenceState>;

export const PresenceBody = z.strictObject({ state: PresenceState });
export type PresenceBody = z.infer<typeof PresenceBody>;

export const PresenceSignal = z.object({
  workspaceId: Id,
  conversationId: Id,
  memberId: Id,
  state: PresenceState,
  at: Timestamp,
});
export type PresenceSignal = z.infer<typeof PresenceSignal>;

/** The SSE event name of a presence signal. */
export const presenceEvent = 'presence';

/** How long a signal holds without being repeated (clients repeat `viewing` every 20 s, `typing` every 3 s). */
export const presenceTtlMs: Record<Exclude<PresenceState, 'left'>, number> = { viewing: 45_000, typing: 8_000 };

/** WhatsApp's typing indicator lasts up to 25 s: the server re-sends it at most this often per conversation. */
export const typingIndicatorThrottleMs = 20_000;
