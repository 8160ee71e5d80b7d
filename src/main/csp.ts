// The renderer's Content-Security-Policy, built from the server address: the page may talk to its own
// files and to that one server (REST, event stream, media), nothing else.
import { isAppUrl } from './app-origin';

export function buildCsp(connectSrc: readonly string[]): string {
  const servers = connectSrc.join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    `connect-src 'self' ${servers}`.trim(),
    `img-src 'self' data: blob: ${servers}`.trim(),
    `media-src 'self' blob: ${servers}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The CSP response header main adds to a response (session.webRequest.onHeadersReceived): the app's own page
 * gets the policy naming the current server; anything else is left as it came (null).
 */
export function appCspHeader(url: string, appEntryUrl: string, connectSrc: readonly string[]): string | null {
  return isAppUrl(url, appEntryUrl) ? buildCsp(connectSrc) : null;
}
