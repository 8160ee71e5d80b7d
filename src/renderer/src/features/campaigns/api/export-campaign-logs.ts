import type { CampaignOutcome } from '@shared/schemas/campaign-canvas';
import { buildPath, routes } from '@shared/api/routes';
import { apiBaseUrl } from '../../../lib/config';
import { currentIdToken } from '../../../lib/id-token';

/**
 * GET /campaign/{campaignId}/logs.csv (addition): the server streams the CSV; a link with `?token=` lets the
 * browser (or Electron's download manager) write it to disk as it arrives instead of holding it in memory.
 */
export async function campaignLogsCsvUrl(campaignId: string, status: CampaignOutcome | undefined): Promise<string> {
  const token = await currentIdToken();
  const query = new URLSearchParams();
  if (status) query.set('status', status);
  if (token) query.set('token', token);
  const qs = query.toString();
  return `${apiBaseUrl()}${buildPath(routes.exportCampaignLogs.path, { campaignId })}${qs ? `?${qs}` : ''}`;
}

export async function downloadCampaignLogs(campaignId: string, status: CampaignOutcome | undefined, fileName: string) {
  const a = document.createElement('a');
  a.href = await campaignLogsCsvUrl(campaignId, status);
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
