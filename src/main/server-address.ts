// The server the desktop app talks to: a setting in <userData>/settings.json (not a secret), checked with
// /healthz before it is remembered; the renderer's CSP connect-src is derived from it.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ServerAddress } from '../shared/ipc';
import { IpcError } from './ipc/router';

const SettingsFile = z.object({ serverUrl: z.string().optional() }).passthrough();

export interface ServerAddressStore {
  get(): string | null;
  /** checks the address and remembers it; throws IpcError 400 / 503 */
  set(url: string): Promise<string>;
  /** origins the renderer may connect to (REST and the event stream) */
  connectSrc(): string[];
}

/** The origin of an http(s) address (what the app stores and the CSP names). */
export function originOf(url: string): string {
  return new URL(url).origin;
}

export async function checkHealth(url: string, fetchImpl: typeof fetch = fetch, timeoutMs = 5000): Promise<void> {
  let response: Response;
  try {
    response = await fetchImpl(new URL('/healthz', url), { signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw new IpcError(503, `No server answers at ${originOf(url)}`, 'unreachable');
  }
  const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
  if (!response.ok || body?.status !== 'ok') throw new IpcError(503, `${originOf(url)} is not a Parley server`, 'not-parley');
}

export function serverAddressStore(options: { userDataDir: string; defaultUrl?: string | null; fetch?: typeof fetch }): ServerAddressStore {
  const file = path.join(options.userDataDir, 'settings.json');
  const read = (): z.infer<typeof SettingsFile> => {
    try {
      return SettingsFile.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    } catch {
      return {};
    }
  };
  const get = () => {
    const stored = read().serverUrl;
    if (stored && ServerAddress.safeParse(stored).success) return stored;
    return options.defaultUrl ? originOf(options.defaultUrl) : null;
  };
  return {
    get,
    async set(raw) {
      const parsed = ServerAddress.safeParse(raw);
      if (!parsed.success) throw new IpcError(400, 'Enter the server address as http(s)://host[:port]', 'invalid-address');
      const origin = originOf(parsed.data);
      await checkHealth(origin, options.fetch);
      fs.mkdirSync(options.userDataDir, { recursive: true });
      const temp = `${file}.tmp`;
      fs.writeFileSync(temp, JSON.stringify({ ...read(), serverUrl: origin }, null, 2));
      fs.renameSync(temp, file);
      return origin;
    },
    connectSrc() {
      const url = get();
      return url ? [url] : [];
    },
  };
}
