// Shows the decided notices through an adapter (Electron's Notification in the app, a recorder in tests);
// a click focuses the window and opens the conversation.
import type { Notice } from './decide';

export interface NotificationAdapter {
  /** shows one notification; calls onClick when the user clicks it */
  show(notice: Notice, onClick: () => void): void;
}

/** Records what would be shown; `click(i)` plays the user's click (tests and the desktop e2e suite). */
export function recordingNotifications(): NotificationAdapter & { shown: Notice[]; click(index: number): void } {
  const clicks: (() => void)[] = [];
  const shown: Notice[] = [];
  return {
    shown,
    show(notice, onClick) {
      shown.push(notice);
      clicks.push(onClick);
    },
    click(index) {
      const handler = clicks[index];
      if (!handler) throw new Error(`No notification #${index} was shown`);
      handler();
    },
  };
}

/** The route a notification or deep link opens. */
export const conversationPath = (conversationId: string) => `/live-chat/${encodeURIComponent(conversationId)}`;
