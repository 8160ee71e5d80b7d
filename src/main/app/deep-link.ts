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
  // Matched on the raw text: URL parsing would resolve `..` segments into something that looks valid.
  const conversation = /^parley:\/\/conversation\/([A-Za-z0-9_-]{1,128})\/?$/i.exec(raw.trim());
  return conversation ? `/live-chat/${conversation[1]}` : '/';
}

/** The first deep link among a launch's arguments (Windows and Linux pass it on the command line). */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  for (const arg of argv) {
    if (arg.startsWith(`${PROTOCOL}:`)) return deepLinkPath(arg);
  }
  return null;
}
