// Which frames may call main: the app's own page (see window.ts isAppUrl), top frame only.
import { isAppUrl } from '../window';
import type { IpcSender } from './router';

export function appSenderCheck(appEntryUrl: string): (sender: IpcSender) => boolean {
  return (sender) => sender.isMainFrame && isAppUrl(sender.url, appEntryUrl);
}
