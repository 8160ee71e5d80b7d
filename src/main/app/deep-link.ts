// parley:// deep links: `parley://conversation/{id}` opens that conversation; anything else opens the app.
export const PROTOCOL = 'parley';

/** The route a deep link opens, or null if it is not one of ours (or malformed). */
export function deepLinkPath(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${PROTOCOL}:`) return null;
  // parley://conversation/abc: host "conversation", path "/abc"
  const parts = [url.hostname, ...url.pathname.split('/')].filter(Boolean);
  if (parts[0] === 'conversation' && parts.length === 2 && /^[A-Za-z0-9_-]{1,128}$/.test(parts[1]!)) {
    return `/live-chat/${parts[1]}`;
  }
  return '/';
}

/** The first deep link among a launch's arguments (Windows and Linux pass it on the command line). */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  for (const arg of argv) {
    if (arg.startsWith(`${PROTOCOL}:`)) return deepLinkPath(arg);
  }
  return null;
}
