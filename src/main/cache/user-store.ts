// Per-user settings, drafts and the last member record (GET /auth/me), in the user's cache folder: kept
// across workspace resyncs, removed with the rest of the user's cache at sign-out.
import { type AuthMe, AuthMe as AuthMeSchema } from '../../shared';
import { type NotificationSettings, NotificationSettings as NotificationSettingsSchema } from '../../shared/ipc';
import { userMigrations } from './migrations';
import { isSafeFileId, openSqlite, type SqliteDatabase } from './sqlite';

export const defaultNotificationSettings: NotificationSettings = { newConversation: true, inboundMessage: true, assignedToMe: true };

export class UserStore {
  readonly db: SqliteDatabase;

  constructor(readonly file: string) {
    this.db = openSqlite(file, userMigrations);
  }

  private get<T>(key: string, parse: (value: unknown) => T): T | null {
    const row = this.db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
    if (!row) return null;
    try {
      return parse(JSON.parse(row.value));
    } catch {
      return null;
    }
  }

  private set(key: string, value: unknown): void {
    this.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, JSON.stringify(value));
  }

  /** The stored member record; a workspace id that cannot name a cache file (an older version stored it) reads as none. */
  me(): AuthMe | null {
    const me = this.get('me', (v) => AuthMeSchema.parse(v));
    if (me?.currentWorkspaceId && !isSafeFileId(me.currentWorkspaceId)) return { ...me, currentWorkspaceId: null };
    return me;
  }

  /** Refuses a workspace id that could not name a cache file: it would make every later start fail. */
  setMe(me: AuthMe): void {
    if (me.currentWorkspaceId !== null && !isSafeFileId(me.currentWorkspaceId)) {
      throw new Error(`Not a usable workspace id: ${JSON.stringify(me.currentWorkspaceId)}`);
    }
    this.set('me', me);
  }

  notificationSettings(): NotificationSettings {
    return { ...defaultNotificationSettings, ...this.get('notifications', (v) => NotificationSettingsSchema.partial().parse(v)) };
  }

  setNotificationSettings(changes: Partial<NotificationSettings>): NotificationSettings {
    const next = { ...this.notificationSettings(), ...changes };
    this.set('notifications', next);
    return next;
  }

  draft(conversationId: string): string {
    return this.db.prepare<[string], { text: string }>('SELECT text FROM drafts WHERE conversation_id = ?').get(conversationId)?.text ?? '';
  }

  /** An empty text removes the draft. */
  setDraft(conversationId: string, text: string, now = new Date()): void {
    if (text === '') {
      this.db.prepare('DELETE FROM drafts WHERE conversation_id = ?').run(conversationId);
      return;
    }
    this.db
      .prepare(
        'INSERT INTO drafts (conversation_id, text, updated_at) VALUES (?, ?, ?) ON CONFLICT (conversation_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at',
      )
      .run(conversationId, text, now.toISOString());
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
