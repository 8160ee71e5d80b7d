import { apiBaseUrl } from '../../../lib/config';

/** Files the server answers as paths (/files/...) live on the server, not on the UI's origin. */
export function mediaHref(url: string): string {
  return url.startsWith('/') ? apiBaseUrl + url : url;
}
