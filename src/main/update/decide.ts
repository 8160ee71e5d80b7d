// The release channel of the running version, and what the app shows about updates. Which update to take is
// electron-updater's own decision (tests/support/update-feed.ts models it for the feed tests).
import { createRequire } from 'node:module';
import type { UpdateStatus } from '../../shared/ipc';

interface Semver {
  prerelease(v: string): readonly (string | number)[] | null;
}
// electron-updater's own semver (it pins its version), not whichever one the app's tree hoists.
const requireFromUpdater = createRequire(createRequire(import.meta.url).resolve('electron-updater'));
const semver = requireFromUpdater('semver') as Semver;

/** The release channel of a version: `1.4.0-beta.2` is on `beta`, `1.4.0` on `latest`. */
export function channelOf(version: string): string {
  const pre = semver.prerelease(version);
  return pre && typeof pre[0] === 'string' ? pre[0] : 'latest';
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
