import { z } from 'zod';
import { defaultLiveChatTab, liveChatTabs } from '@shared/limits';

export type LiveChatTab = (typeof liveChatTabs)[number];
export { liveChatTabs, defaultLiveChatTab };

/** The `tab` search param of /live-chat (spec section 2): me, assigned, open or closed, default closed. */
export const liveChatSearchSchema = z.object({
  tab: z.enum(liveChatTabs).catch(defaultLiveChatTab).default(defaultLiveChatTab),
});

export const tabLabels: Record<LiveChatTab, string> = {
  me: 'Me',
  assigned: 'Assigned',
  open: 'Open',
  closed: 'Closed',
};

export function parseTab(value: unknown): LiveChatTab {
  return liveChatSearchSchema.parse({ tab: value }).tab;
}
