import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { takeLanding } from '../../../lib/paths';
import { landingTab, rememberTab } from '../utils/landing-tab';
import type { LiveChatTab } from '../utils/tabs';

/**
 * Switching tabs (kept in the URL, the open conversation staying open), remembering the member's choice for the
 * next sign-in; and after a sign-in lands on live chat, moving (in place of the landing address) to the tab the
 * member uses once the tab counts are known (utils/landing-tab.ts says which). Answers the tab switcher.
 */
export function useTabs(
  memberId: string,
  tab: LiveChatTab,
  conversationId: string | undefined,
  counts: Record<LiveChatTab, number> | undefined,
): (tab: LiveChatTab) => void {
  const navigate = useNavigate();
  const show = (next: LiveChatTab, replace: boolean) => {
    if (conversationId) void navigate({ to: '/live-chat/$conversationId', params: { conversationId }, search: { tab: next }, replace });
    else void navigate({ to: '/live-chat', search: { tab: next }, replace });
  };
  useEffect(() => {
    if (!counts || !takeLanding()) return;
    const target = landingTab(memberId, counts);
    if (target !== tab) show(target, true);
    // Only the counts' arrival matters: the landing is taken once.
  }, [counts]);
  return (next) => {
    rememberTab(memberId, next);
    show(next, false);
  };
}
