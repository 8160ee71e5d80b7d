// Which update to offer and what the app shows about it. The feed is read with electron-updater's own
// GenericProvider (the same code the installed app uses), versions compared with the semver electron-updater
// depends on, so what this module decides is what electron-updater will do.
import { createRequire } from 'node:module';
import http from 'node:http';
import https from 'node:https';
import { HttpExecutor, type UpdateInfo } from 'builder-util-runtime';
import type { UpdateStatus } from '../../shared/ipc';

interface Semver {
  valid(v: string): string | null;
  gt(a: string, b: string): boolean;
  prerelease(v: string): readonly (string | number)[] | null;
}
// electron-updater's own semver (it pins its version), not whichever one the app's tree hoists.
const requireFromUpdater = createRequire(createRequire(import.meta.url).resolve('electron-updater'));
const semver = requireFromUpdater('semver') as Semver;
const { GenericProvider } = requireFromUpdater('./providers/GenericProvider') as {
  GenericProvider: new (
    configuration: { provider: 'generic'; url: string; channel?: string | null },
    updater: { channel: string | null; isAddNoCacheQuery: boolean },
    runtimeOptions: { executor: HttpExecutor<http.ClientRequest>; isUseMultipleRangeRequest: boolean; platform: NodeJS.Platform },
  ) => { getLatestVersion(): Promise<UpdateInfo> };
};

/** The release channel of a version: `1.4.0-beta.2` is on `beta`, `1.4.0` on `latest`. */
export function channelOf(version: string): string {
  const pre = semver.prerelease(version);
  return pre && typeof pre[0] === 'string' ? pre[0] : 'latest';
}

/** The feed file electron-builder writes for a channel and platform (latest.yml, latest-mac.yml, beta-linux.yml). */
export function feedFileName(channel: string, platform: NodeJS.Platform): string {
  const suffix = platform === 'darwin' ? '-mac' : platform === 'linux' ? '-linux' : '';
  return `${channel}${suffix}.yml`;
}

export interface UpdateDecision {
  available: boolean;
  version: string;
  releaseNotes: string | null;
}

/**
 * Offer `info.version` when it is newer than what runs. A stable install never takes a prerelease; a beta
 * install takes newer betas and the next stable (electron-updater's allowPrerelease default). Never a downgrade.
 */
export function decideUpdate(currentVersion: string, info: Pick<UpdateInfo, 'version' | 'releaseNotes'>): UpdateDecision {
  const notes = typeof info.releaseNotes === 'string' ? info.releaseNotes : Array.isArray(info.releaseNotes) ? info.releaseNotes.map((n) => n.note ?? '').join('\n') : null;
  const offered = semver.valid(info.version);
  const base = { version: info.version, releaseNotes: notes || null };
  if (!offered || !semver.valid(currentVersion)) return { ...base, available: false };
  if (semver.prerelease(offered) && !semver.prerelease(currentVersion)) return { ...base, available: false };
  return { ...base, available: semver.gt(offered, currentVersion) };
}

/** Node's http(s) for electron-updater's provider outside Electron (tests; the app uses Electron's net). */
class NodeHttpExecutor extends HttpExecutor<http.ClientRequest> {
  createRequest(options: http.RequestOptions & { protocol?: string }, callback: (response: http.IncomingMessage) => void): http.ClientRequest {
    return (options.protocol === 'https:' ? https : http).request(options, callback);
  }
}

/** Reads the generic feed at `url` for a channel and platform, as the installed app would. */
export async function readFeed(url: string, channel: string, platform: NodeJS.Platform): Promise<UpdateInfo> {
  const provider = new GenericProvider(
    { provider: 'generic', url },
    { channel: channel === 'latest' ? null : channel, isAddNoCacheQuery: false },
    { executor: new NodeHttpExecutor(), isUseMultipleRangeRequest: false, platform },
  );
  return provider.getLatestVersion();
}

// ---------- what the app shows ----------

export type UpdaterEvent =
  | { type: 'checking' }
  | { type: 'available'; version: string; releaseNotes: string | null }
  | { type: 'not-available' }
  | { type: 'progress'; percent: number }
  | { type: 'downloaded'; version: string; releaseNotes: string | null }
  | { type: 'error'; message: string };

export function initialUpdateStatus(currentVersion: string): UpdateStatus {
  return { state: 'idle', currentVersion, version: null, percent: null, releaseNotes: null, message: null, checkedAt: null };
}

/** The status after an updater event. A downloaded update stays offered ("Restart to update") whatever follows. */
export function nextUpdateStatus(status: UpdateStatus, event: UpdaterEvent, now: Date): UpdateStatus {
  if (status.state === 'downloaded' && event.type !== 'downloaded') return status;
  switch (event.type) {
    case 'checking':
      return { ...status, state: 'checking', message: null };
    case 'available':
      return { ...status, state: 'available', version: event.version, releaseNotes: event.releaseNotes, percent: 0, checkedAt: now.toISOString() };
    case 'not-available':
      return { ...status, state: 'upToDate', version: null, percent: null, checkedAt: now.toISOString() };
    case 'progress':
      return { ...status, state: 'downloading', percent: Math.max(0, Math.min(100, Math.round(event.percent * 10) / 10)) };
    case 'downloaded':
      return { ...status, state: 'downloaded', version: event.version, releaseNotes: event.releaseNotes, percent: 100, message: null };
    case 'error':
      // a failed check while nothing is pending is not worth alarming anyone: it is retried on the next round
      return { ...status, state: 'error', percent: null, message: `Could not check for updates: ${event.message.split('\n')[0]}` };
  }
}
