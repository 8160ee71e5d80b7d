/**
 * Signs of new customer messages on every signed-in screen (web mode has no other): keeps the tab counts
 * current from the event stream (the live-chat screen does the same for its lists), answers the unread total
 * (the navigation badge and the title count; the desktop runtime turns the same counts into the window badge),
 * and chimes for an inbound message unless the agent is reading that very conversation.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { badgeCount } from '../../../lib/desktop-runtime';
import { playNewMessageSound } from '../../../lib/notify-sound';
import { useWorkspaceEvents } from '../../../lib/workspace-events';
import { useConversationCounts } from '../api/count-conversations';
import { liveChatKeys } from '../api/keys';

/** The conversation on screen in a visible window, if any (no chime for what the agent is looking at). */
function readingConversation(conversationId: string): boolean {
  if (typeof document === 'undefined' || document.hidden) return false;
  const path = window.location.hash.startsWith('#/') ? window.location.hash.slice(1) : window.location.pathname;
  return path.startsWith(`/live-chat/${conversationId}`);
}

export function useUnreadBeacon(workspaceId: string): number {
  const qc = useQueryClient();
  const counts = useConversationCounts(workspaceId);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  useWorkspaceEvents(workspaceId, (e) => {
    if (e.type !== 'message.created' && e.type !== 'conversation.opened' && e.type !== 'conversation.updated') return;
    if (e.type === 'message.created' && e.payload.message.creator === 'user' && !readingConversation(e.payload.message.conversationId)) {
      playNewMessageSound();
    }
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void qc.invalidateQueries({ queryKey: liveChatKeys.counts(workspaceId) });
      // The longest-waiting order changes with every message: refetched, not patched.
      void qc.invalidateQueries({ queryKey: liveChatKeys.waiting(workspaceId) });
    }, 400);
  });

  return counts.data?.unread ? badgeCount(counts.data) : 0;
}
