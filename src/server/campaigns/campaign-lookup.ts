/** A campaign of the caller's workspace, or 404: every campaign route starts here. */
import type { Executor } from '../db/client';
import { notFound } from '../errors';
import * as r from '../repositories/resources';

export async function campaignOf(ex: Executor, workspaceId: string, id: string) {
  const row = await r.campaigns.get(ex, workspaceId, id);
  if (!row) throw notFound('Campaign not found');
  return row;
}
