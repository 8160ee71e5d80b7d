/**
 * Presence in one conversation: tells the team this member views it (every 20 s while the
 * window is visible, "left" on the way out) and types in it (at most every 3 s while typing); answers who
 * else views or types there now. Signals expire on their own (shared presenceTtlMs), so a closed laptop
 * never leaves a ghost.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { type PresenceSignal, presenceTtlMs } from '@shared/schemas/presence';
import { usePresenceSignals } from '../../../lib/workspace-events';
import { sendPresence } from '../api/set-presence';

const VIEW_BEAT_MS = 20_000;
const TYPING_BEAT_MS = 3_000;

export interface Present {
  memberId: string;
  state: 'viewing' | 'typing';
  until: number;
}

/** Folds one signal into who is present (pure: tested on its own). */
export function applySignal(present: Present[], s: PresenceSignal, now: number): Present[] {
  const others = present.filter((p) => p.memberId !== s.memberId && p.until > now);
  if (s.state === 'left') return others;
  return [...others, { memberId: s.memberId, state: s.state, until: now + presenceTtlMs[s.state] }];
}

export function usePresence(workspaceId: string, conversationId: string, meId: string) {
  const [present, setPresent] = useState<Present[]>([]);
  const lastTyping = useRef(0);

  useEffect(() => {
    const beat = () => {
      if (typeof document === 'undefined' || !document.hidden) void sendPresence(conversationId, 'viewing');
    };
    beat();
    const timer = setInterval(beat, VIEW_BEAT_MS);
    document.addEventListener('visibilitychange', beat);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', beat);
      void sendPresence(conversationId, 'left');
    };
  }, [conversationId]);

  usePresenceSignals(workspaceId, (s) => {
    if (s.conversationId !== conversationId || s.memberId === meId) return;
    setPresent((p) => applySignal(p, s, Date.now()));
  });

  // Expired signals leave the list without a new one arriving.
  useEffect(() => {
    if (present.length === 0) return;
    const next = Math.min(...present.map((p) => p.until)) - Date.now();
    const timer = setTimeout(() => setPresent((p) => p.filter((x) => x.until > Date.now())), Math.max(50, next));
    return () => clearTimeout(timer);
  }, [present]);

  const typing = useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < TYPING_BEAT_MS) return;
    lastTyping.current = now;
    void sendPresence(conversationId, 'typing');
  }, [conversationId]);

  return { present, typing };
}
