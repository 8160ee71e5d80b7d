/** A workspace's campaign settings: its time zone (send windows), opt-out keywords and confirmation. */
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import * as t from '../db/schema';

export interface WorkspaceCampaignSettings {
  timeZone: string;
  optOutKeywords: string[];
  optOutConfirmation: string;
  /** Marketing templates to US numbers are skipped before sending. */
  skipUsMarketing: boolean;
}

export async function campaignSettingsOf(ex: Executor, workspaceId: string): Promise<WorkspaceCampaignSettings> {
  const w = t.workspaces;
  const [row] = await ex
    .select({ timeZone: w.timeZone, optOutKeywords: w.optOutKeywords, optOutConfirmation: w.optOutConfirmation, skipUsMarketing: w.skipUsMarketing })
    .from(w)
    .where(eq(w.id, workspaceId));
  return row ?? { timeZone: 'UTC', optOutKeywords: [], optOutConfirmation: '', skipUsMarketing: true };
}

export async function setCampaignSettings(ex: Executor, workspaceId: string, set: Partial<WorkspaceCampaignSettings>): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await ex.update(t.workspaces).set(set).where(eq(t.workspaces.id, workspaceId));
}
