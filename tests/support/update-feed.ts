/**
 * The release feed as the installed app reads it, for the updater tests: the feed file electron-builder writes,
 * read with electron-updater's own GenericProvider, and which version electron-updater would offer (with the
 * semver it depends on). The app itself leaves all of this to electron-updater (src/main/update).
 */
import { createRequire } from 'node:module';
import http from 'node:http';
import https from 'node:https';
import { HttpExecutor, type UpdateInfo } from 'builder-util-runtime';

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

/** The feed file electron-builder writes for a channel and platform (latest.yml, latest-mac.yml, beta-linux.yml). */
export function feedFileName(channel: string, platform: NodeJS.Platform): string {
  const suffix = platform === 'darwin' ? '-mac' : platform === 'linux' ? '-linux' : '';
  return `${channel}${suffix}.yml`;
}

interface UpdateDecision {
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

/** Node's http(s) for electron-updater's provider outside Electron (the app uses Electron's net). */
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
