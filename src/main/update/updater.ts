// Auto-update around electron-updater's autoUpdater (passed in as a small adapter): checks at start and every
// few hours, downloads in the background, reports progress as UpdateStatus events, and installs on "Restart
// to update". The Electron glue in src/main/index.ts hands in the real autoUpdater.
import type { UpdateStatus } from '../../shared/ipc';
import { initialUpdateStatus, nextUpdateStatus, type UpdaterEvent } from './decide';
import type { UpdaterPort } from './port';

/** The part of electron-updater's AppUpdater this module uses. */
export interface AutoUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowPrerelease: boolean;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(event: 'update-available' | 'update-downloaded', listener: (info: { version: string; releaseNotes?: unknown }) => void): unknown;
  on(event: 'update-not-available', listener: () => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
}

export const UPDATE_INTERVAL_MS = 4 * 60 * 60 * 1000;

const notesOf = (notes: unknown): string | null =>
  typeof notes === 'string' ? notes : Array.isArray(notes) ? notes.map((n: { note?: string | null }) => n.note ?? '').join('\n') : null;

export function createUpdater(options: {
  autoUpdater: AutoUpdaterLike;
  currentVersion: string;
  /** a prerelease install follows its channel's prereleases */
  allowPrerelease: boolean;
  intervalMs?: number;
  now?: () => Date;
  log?: (line: string) => void;
}): UpdaterPort & { start(): void; stop(): void } {
  const { autoUpdater } = options;
  const now = options.now ?? (() => new Date());
  let status = initialUpdateStatus(options.currentVersion);
  const listeners = new Set<(status: UpdateStatus) => void>();
  const apply = (event: UpdaterEvent) => {
    const next = nextUpdateStatus(status, event, now());
    if (next === status) return;
    status = next;
    for (const listener of listeners) listener(status);
  };

  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.allowPrerelease = options.allowPrerelease;
  autoUpdater.on('checking-for-update', () => apply({ type: 'checking' }));
  autoUpdater.on('update-available', (info) => apply({ type: 'available', version: info.version, releaseNotes: notesOf(info.releaseNotes) }));
  autoUpdater.on('update-not-available', () => apply({ type: 'not-available' }));
  autoUpdater.on('download-progress', (p) => apply({ type: 'progress', percent: p.percent }));
  autoUpdater.on('update-downloaded', (info) => apply({ type: 'downloaded', version: info.version, releaseNotes: notesOf(info.releaseNotes) }));
  autoUpdater.on('error', (error) => apply({ type: 'error', message: error.message }));

  let timer: NodeJS.Timeout | null = null;
  const check = async (): Promise<UpdateStatus> => {
    if (status.state === 'downloaded' || status.state === 'downloading' || status.state === 'checking') return status;
    try {
      await autoUpdater.checkForUpdates();
    } catch (error) {
      // also reported through 'error'; logged without the feed's URL query
      options.log?.(`update check failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
    return status;
  };

  return {
    status: () => status,
    check,
    restart() {
      if (status.state !== 'downloaded') return false;
      autoUpdater.quitAndInstall(false, true);
      return true;
    },
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      void check();
      timer = setInterval(() => void check(), options.intervalMs ?? UPDATE_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
