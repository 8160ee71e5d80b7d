// The renderer's Content-Security-Policy, built from the server address: the page may talk to its own
// files and to that one server (REST, event stream, media), nothing else.
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
