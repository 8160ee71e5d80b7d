// The app's own origin and the one question several policies ask of it: is this URL the app? Its own module
// because the window policy, the CSP header, the IPC sender check and the app:// handler all need it, and
// none of them should need each other for it.

export const APP_SCHEME = 'app';
export const APP_HOST = 'parley';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** What the window loads in a packaged app. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** `raw` as a URL, or null when it is not one. */
export function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * Whether `target` belongs to the app loaded from `appEntryUrl`: same origin for an http(s)
 * entry (dev server); for the app:// entry, the whole app:// origin.
 */
export function isAppUrl(target: string, appEntryUrl: string): boolean {
  const url = parseUrl(target);
  const entry = parseUrl(appEntryUrl);
  if (!url || !entry) return false;
  if (entry.protocol === `${APP_SCHEME}:`) {
    // the whole app:// origin is the app (a standard scheme: host is part of the origin)
    return url.protocol === entry.protocol && url.host === APP_HOST && entry.host === APP_HOST;
  }
  if (entry.protocol === 'http:' || entry.protocol === 'https:') {
    return url.origin === entry.origin;
  }
  return false;
}
