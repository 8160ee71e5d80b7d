/** When Meta's webhook verification call last reached this server (shown in WhatsApp settings). */
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export async function recordVerified(ex: Executor, channel: string, at: Date): Promise<void> {
  await ex
    .insert(t.webhookVerifications)
    .values({ channel, verifiedAt: at })
    .onConflictDoUpdate({ target: t.webhookVerifications.channel, set: { verifiedAt: sql`excluded.verified_at` } });
}

export async function lastVerified(ex: Executor, channel: string): Promise<Date | null> {
  const [row] = await ex.select().from(t.webhookVerifications).where(eq(t.webhookVerifications.channel, channel)).limit(1);
  return row?.verifiedAt ?? null;
}
