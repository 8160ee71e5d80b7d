import { Outlet, type RegisteredRouter, useMatches } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isMissingRecord } from '../components/error-screens';
import { useUnreadTitle, withUnread } from './unread-title';

/** The screen name of every route (the type makes a new route without a title a compile error). */
const titles: Record<RegisteredRouter['routesByPath'] extends infer R ? keyof R : never, string> = {
  '/': 'Team inbox for WhatsApp',
  '/invite/$inviteId': 'Invitation',
  '/login': 'Sign in',
  '/signup': 'Create account',
  '/forgot-password': 'Reset password',
  '/verify-email-address': 'Verify your e-mail',
  '/live-chat': 'Live chat',
  '/live-chat/$conversationId': 'Live chat',
  '/audience': 'Audience',
  '/automation': 'Automation',
  '/automation/$botId': 'Bot',
  '/campaigns': 'Campaigns',
  '/campaigns/$campaignId': 'Campaign',
  '/templates': 'Templates',
  '/templates/create': 'New template',
  '/settings': 'Settings',
  '/settings/': 'Settings',
  '/settings/profile': 'Profile · Settings',
  '/settings/whatsapp': 'WhatsApp accounts · Settings',
  '/settings/segments': 'Segments · Settings',
  '/settings/members': 'Members · Settings',
  '/settings/attributes': 'Attributes · Settings',
  '/settings/canned-replies': 'Canned replies · Settings',
  '/settings/campaigns': 'Campaigns · Settings',
  '/settings/bots': 'Bots · Settings',
  '/settings/whatsapp/going-live': 'Connect a real WhatsApp number · Settings',
  '/settings/pricing': 'Pricing · Settings',
};

export function titleOf(fullPath: string, state: 'ok' | 'notFound' | 'error'): string {
  if (state === 'notFound') return 'Not Found · Parley';
  if (state === 'error') return 'Something went wrong! · Parley';
  const title = (titles as Record<string, string>)[fullPath];
  return title ? `${title} · Parley` : 'Parley';
}

/** The root route's component: keeps `document.title` on the current screen's name ("Live chat · Parley"). */
export function RootLayout() {
  const matches = useMatches();
  const last = matches.at(-1);
  const state = matches.some((m) => m._notFound || m.status === 'notFound' || (m.status === 'error' && isMissingRecord(m.error)))
    ? 'notFound'
    : matches.some((m) => m.status === 'error')
      ? 'error'
      : 'ok';
  const unread = useUnreadTitle((s) => s.count);
  const title = withUnread(titleOf(last?.fullPath ?? '', state), unread);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <Outlet />;
}
