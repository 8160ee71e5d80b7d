// Shows the decided notices through an adapter (Electron's Notification in the app, a recorder in tests);
// a click focuses the window and opens the conversation.
import { isSafeFileId } from '../cache/sqlite';
import type { Notice } from './decide';

export interface NotificationAdapter {
  /** shows one notification; calls onClick when the user clicks it */
  show(notice: Notice, onClick: () => void): void;
}

/** The route a notification or deep link opens. */
export const conversationPath = (conversationId: string) => `/live-chat/${encodeURIComponent(conversationId)}`;

/** The route a notification click opens: its conversation, or the inbox for an id no route can name. Never throws. */
export const noticeClickPath = (conversationId: string) => (isSafeFileId(conversationId) ? conversationPath(conversationId) : '/live-chat');

/**
 * The text handed to the OS. Linux notification servers render the body as markup (libnotify's subset of HTML:
 * <b>, <a href>, <img>): a customer's name or message must show as typed, never as markup. Titles are plain text
 * there; macOS and Windows show both as plain text.
 */
export function notificationText(notice: Pick<Notice, 'title' | 'body'>, platform: NodeJS.Platform): { title: string; body: string } {
  if (platform !== 'linux') return { title: notice.title, body: notice.body };
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  return { title: notice.title, body: escape(notice.body) };
}
