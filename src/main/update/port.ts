// What the desktop core needs of the updater (src/main/update/updater.ts drives electron-updater behind it).
import type { UpdateStatus } from '../../shared/ipc';

export interface UpdaterPort {
  status(): UpdateStatus;
  check(): Promise<UpdateStatus>;
  /** quits and installs the downloaded update; false when none is downloaded */
  restart(): boolean;
  onStatus(listener: (status: UpdateStatus) => void): () => void;
}

/** For runs that cannot update themselves (development, tests, the e2e suite). */
export function noUpdater(currentVersion: string, message = 'This build does not update itself'): UpdaterPort {
  const status: UpdateStatus = {
    state: 'unsupported',
    currentVersion,
    version: null,
    percent: null,
    releaseNotes: null,
    message,
    checkedAt: null,
  };
  return { status: () => status, check: async () => status, restart: () => false, onStatus: () => () => undefined };
}
