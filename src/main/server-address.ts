// The server the desktop app talks to: a setting in <userData>/settings.json (not a secret). An address is
// remembered only when it is https (plain http only on this machine's loopback) and its /healthz proves a
// Parley server of the app's own Firebase project; the renderer's CSP connect-src is derived from it.
// The signed-in session is bound to the server it was signed in on (core.ts refuses a change while signed in).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ServerAddress } from '../shared/ipc';
import { IpcError } from './ipc/router';

const SettingsFile = z.object({ serverUrl: z.string().optional() }).passthrough();

export interface ServerAddressStore {
  get(): string | null;
  /** checks the address (see checkServerAddress) and answers its origin; nothing is saved yet */
  check(url: string): Promise<string>;
  /** remembers an origin that passed check() */
  save(origin: string): void;
  /** check() then save() */
  set(url: string): Promise<string>;
  /** origins the renderer may connect to (REST and the event stream) */
  connectSrc(): string[];
}

/** The origin of an http(s) address (what the app stores and the CSP names). */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** localhost, 127.0.0.0/8 and ::1: plain http never leaves the machine there. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** https, or http to a loopback address; anything else is refused before a request is made. */
export function isAllowedServerUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname));
}

const Health = z.object({ status: z.literal('ok'), projectId: z.string() });

/** GET /healthz: a Parley server of `projectId`, or an IpcError 503 (nothing there) / 409 (another project). */
export async function checkHealth(url: string, projectId: string, fetchImpl: typeof fetch = fetch, timeoutMs = 5000): Promise<void> {
  let response: Response;
  try {
    // no credentials of any kind go with this request, and no redirect is followed to another host
    response = await fetchImpl(new URL('/healthz', url), { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch {
    throw new IpcError(503, `No server answers at ${originOf(url)}`, 'unreachable');
  }
  const text = response.ok ? await response.text().catch(() => '') : '';
  let body: unknown = null;
  try {
    body = text.length <= 4096 ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const health = Health.safeParse(body);
  if (!health.success) throw new IpcError(503, `${originOf(url)} is not a Parley server`, 'not-parley');
  if (health.data.projectId !== projectId) {
    throw new IpcError(409, `${originOf(url)} is a Parley server of another sign-in project`, 'other-project');
  }
}

export function serverAddressStore(options: {
  userDataDir: string;
  /** the app's Firebase project: a server must answer the same one */
  projectId: string;
  defaultUrl?: string | null;
  fetch?: typeof fetch;
}): ServerAddressStore {
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
    if (stored && ServerAddress.safeParse(stored).success && isAllowedServerUrl(stored)) return originOf(stored);
    return options.defaultUrl && isAllowedServerUrl(options.defaultUrl) ? originOf(options.defaultUrl) : null;
  };
  return {
    get,
    async check(raw) {
      const parsed = ServerAddress.safeParse(raw);
      if (!parsed.success) throw new IpcError(400, 'Enter the server address as https://host[:port]', 'invalid-address');
      if (!isAllowedServerUrl(parsed.data)) {
        throw new IpcError(400, 'The server address must start with https:// (http:// only for this computer)', 'insecure-address');
      }
      const origin = originOf(parsed.data);
      await checkHealth(origin, options.projectId, options.fetch);
      return origin;
    },
    save(origin) {
      fs.mkdirSync(options.userDataDir, { recursive: true, mode: 0o700 });
      const temp = `${file}.tmp`;
      fs.writeFileSync(temp, JSON.stringify({ ...read(), serverUrl: origin }, null, 2), { mode: 0o600 });
      fs.renameSync(temp, file);
    },
    async set(raw) {
      const origin = await this.check(raw);
      this.save(origin);
      return origin;
    },
    connectSrc() {
      const url = get();
      return url ? [url] : [];
    },
  };
}
