import { defaultLiveChatTab } from '@shared/limits';

/** Where a signed-in user lands by default (spec section 2). */
export const homeHref = `/live-chat?tab=${defaultLiveChatTab}`;

/**
 * Set when a sign-in (or a signed-in visit to a guest page) goes to homeHref: live chat then opens the tab the
 * member uses rather than the default Closed tab (features/live-chat/utils/landing-tab.ts). Taken once.
 */
const landing = { pending: false };

/** homeHref, noting that live chat is reached by landing there. */
export function landingHref(): string {
  landing.pending = true;
  return homeHref;
}

/** Whether live chat was reached by a landing; answers true once. */
export function takeLanding(): boolean {
  const was = landing.pending;
  landing.pending = false;
  return was;
}

/** Only same-app paths are followed (never `//host` or `https://...`): no open redirect through ?redirect=. */
export function safeRedirect(target: unknown): string | undefined {
  return typeof target === 'string' && target.startsWith('/') && !target.startsWith('//') ? target : undefined;
}
