// Which frames may call main: the app's own page (see app-origin.ts isAppUrl), top frame only.
import { isAppUrl } from '../app-origin';
import type { IpcSender } from './router';

export function appSenderCheck(appEntryUrl: string): (sender: IpcSender) => boolean {
  return (sender) => sender.isMainFrame && isAppUrl(sender.url, appEntryUrl);
}
