import { buildPath, routes } from '@shared/api/routes';
import { apiBaseUrl } from '../../../lib/config';
import { currentIdToken } from '../../../lib/id-token';

export interface ContactExportFilter {
  search: string;
  segmentId: string | null;
  optedOut: boolean | null;
}

/**
 * GET /workspace/{id}/contacts/export.csv (addition, admins): the server streams the CSV of the list's current
 * filter; a link with `?token=` lets the browser (or Electron's download manager) write it to disk as it arrives.
 */
export async function contactsCsvUrl(workspaceId: string, filter: ContactExportFilter): Promise<string> {
  const query = new URLSearchParams();
  if (filter.search) query.set('search', filter.search);
  if (filter.segmentId) query.set('segmentId', filter.segmentId);
  if (filter.optedOut !== null) query.set('optedOut', String(filter.optedOut));
  const token = await currentIdToken();
  if (token) query.set('token', token);
  const qs = query.toString();
  return `${apiBaseUrl()}${buildPath(routes.exportContacts.path, { workspaceId })}${qs ? `?${qs}` : ''}`;
}

export async function downloadContacts(workspaceId: string, filter: ContactExportFilter): Promise<void> {
  const a = document.createElement('a');
  a.href = await contactsCsvUrl(workspaceId, filter);
  a.download = `contacts-${new Date().toISOString().slice(0, 10)}.csv`;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
