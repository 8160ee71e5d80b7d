/** Presence signals: published on the event channel, never stored (realtime/hub.ts fans them out). */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { eventChannel } from './event-log';

export async function notifyPresence(ex: Executor, workspaceId: string, json: string): Promise<void> {
  await ex.execute(sql`select pg_notify(${eventChannel}, ${`${workspaceId}:p:${json}`})`);
}
