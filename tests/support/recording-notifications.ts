/** A notification adapter for the desktop tests and the desktop e2e suite: records what would be shown. */
import type { Notice } from '../../src/main/notify/decide';
import type { NotificationAdapter } from '../../src/main/notify/notifier';

/** Records what would be shown; `click(i)` plays the user's click. */
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
