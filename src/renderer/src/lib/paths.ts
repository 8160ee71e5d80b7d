import { defaultLiveChatTab } from '@shared/limits';

/** Where a signed-in user lands by default (spec section 2). */
export const homeHref = `/live-chat?tab=${defaultLiveChatTab}`;

/** Only same-app paths are followed (never `//host` or `https://...`): no open redirect through ?redirect=. */
export function safeRedirect(target: unknown): string | undefined {
  return typeof target === 'string' && target.startsWith('/') && !target.startsWith('//') ? target : undefined;
}
