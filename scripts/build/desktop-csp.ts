// The <meta> CSP of the desktop renderer build (electron.vite.config.ts). src/renderer/index.html's own policy
// names only loopback servers (web mode and development). A release build names the server it is built for
// (PARLEY_API_URL) instead; main narrows it again to the server the user chose each time it serves index.html
// on app://parley/ (src/main/app-protocol.ts), and sends the same policy as a header. Never a wildcard.
const SERVER_DIRECTIVES = ['connect-src', 'img-src', 'media-src'];
const loopbackSource = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost):\*$/;

export function desktopMetaPolicy(policy: string, serverUrl: string | undefined): string {
  if (!serverUrl) return policy;
  const origin = new URL(serverUrl).origin;
  return policy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => {
      const [name, ...sources] = d.split(/\s+/);
      if (!SERVER_DIRECTIVES.includes(name)) return d;
      return [name, ...sources.filter((x) => !loopbackSource.test(x)), origin].join(' ');
    })
    .join('; ');
}

/** index.html with its meta policy rewritten by desktopMetaPolicy. */
export function desktopIndexHtml(html: string, serverUrl: string | undefined): string {
  let found = false;
  const out = html.replace(/(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/, (_m, open: string, policy: string, close: string) => {
    found = true;
    return open + desktopMetaPolicy(policy, serverUrl) + close;
  });
  if (!found) throw new Error('src/renderer/index.html has no Content-Security-Policy meta to adapt');
  return out;
}
