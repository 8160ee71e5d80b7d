// Auto-update decisions against a local HTTP server serving electron-builder's generic feed
// (latest.yml, latest-mac.yml, beta.yml), read with electron-updater's own GenericProvider.
import http from 'node:http';
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelOf } from '../../src/main/update/decide';
import { decideUpdate, feedFileName, readFeed } from '../support/update-feed';
import { createUpdater, type AutoUpdaterLike } from '../../src/main/update/updater';

const feeds: Record<string, string> = {
  'latest.yml': `version: 1.3.0
files:
  - url: Parley-Setup-1.3.0.exe
    sha512: c2hhNTEyLXdpbmRvd3M=
    size: 81234567
path: Parley-Setup-1.3.0.exe
sha512: c2hhNTEyLXdpbmRvd3M=
releaseDate: '2026-11-20T10:00:00.000Z'
releaseNotes: Faster inbox and offline search
`,
  'latest-mac.yml': `version: 1.3.1
files:
  - url: Parley-1.3.1-mac.zip
    sha512: c2hhNTEyLW1hYw==
    size: 91234567
  - url: Parley-1.3.1.dmg
    sha512: c2hhNTEyLWRtZw==
    size: 95234567
path: Parley-1.3.1-mac.zip
sha512: c2hhNTEyLW1hYw==
releaseDate: '2026-11-21T10:00:00.000Z'
`,
  'beta.yml': `version: 1.4.0-beta.2
files:
  - url: Parley-Setup-1.4.0-beta.2.exe
    sha512: YmV0YQ==
    size: 81234567
path: Parley-Setup-1.4.0-beta.2.exe
sha512: YmV0YQ==
releaseDate: '2026-11-22T10:00:00.000Z'
`,
};

let server: http.Server;
let feedUrl: string;
const requested: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const name = new URL(req.url!, 'http://x').pathname.slice(1);
    requested.push(name);
    const body = feeds[name];
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/yaml' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('update feed and decision', () => {
  it('names the feed files electron-builder publishes', () => {
    expect(feedFileName('latest', 'win32')).toBe('latest.yml');
    expect(feedFileName('latest', 'darwin')).toBe('latest-mac.yml');
    expect(feedFileName('latest', 'linux')).toBe('latest-linux.yml');
    expect(feedFileName('beta', 'darwin')).toBe('beta-mac.yml');
    expect(channelOf('1.2.0')).toBe('latest');
    expect(channelOf('1.4.0-beta.1')).toBe('beta');
  });

  it('reads latest.yml on Windows and latest-mac.yml on macOS, and offers the newer version', async () => {
    const win = await readFeed(feedUrl, 'latest', 'win32');
    expect(win.version).toBe('1.3.0');
    expect(requested.at(-1)).toBe('latest.yml');
    expect(decideUpdate('1.2.0', win)).toEqual({ available: true, version: '1.3.0', releaseNotes: 'Faster inbox and offline search' });

    const mac = await readFeed(feedUrl, 'latest', 'darwin');
    expect(requested.at(-1)).toBe('latest-mac.yml');
    expect(mac.files.map((f) => f.url)).toContain('Parley-1.3.1-mac.zip');
    expect(decideUpdate('1.2.0', mac)).toMatchObject({ available: true, version: '1.3.1' });
  });

  it('offers nothing when up to date, never a downgrade, and no prerelease to a stable install', async () => {
    const win = await readFeed(feedUrl, 'latest', 'win32');
    expect(decideUpdate('1.3.0', win).available).toBe(false);
    expect(decideUpdate('2.0.0', win).available).toBe(false);
    const beta = await readFeed(feedUrl, 'beta', 'win32');
    expect(requested.at(-1)).toBe('beta.yml');
    expect(decideUpdate('1.3.0', beta).available).toBe(false);
    expect(decideUpdate('1.4.0-beta.1', beta)).toMatchObject({ available: true, version: '1.4.0-beta.2' });
  });

  it('fails clearly when the feed is missing for a platform', async () => {
    await expect(readFeed(feedUrl, 'latest', 'linux')).rejects.toThrow(/latest-linux\.yml/);
  });
});

/** electron-updater's autoUpdater as the app sees it, reading the same local feed. */
function feedBackedAutoUpdater(currentVersion: string, platform: NodeJS.Platform) {
  const emitter = new EventEmitter();
  const installs: boolean[] = [];
  const updater = {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    allowPrerelease: false,
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    async checkForUpdates() {
      emitter.emit('checking-for-update');
      try {
        const info = await readFeed(feedUrl, 'latest', platform);
        const decision = decideUpdate(currentVersion, info);
        if (!decision.available) return emitter.emit('update-not-available', info);
        emitter.emit('update-available', info);
        for (const percent of [12.5, 50, 100]) emitter.emit('download-progress', { percent });
        emitter.emit('update-downloaded', info);
      } catch (error) {
        emitter.emit('error', error);
      }
    },
    quitAndInstall: (silent?: boolean) => void installs.push(!!silent),
  };
  return { updater: updater as unknown as AutoUpdaterLike & { autoDownload: boolean }, installs };
}

describe('updater status', () => {
  it('checks, shows download progress, then offers "Restart to update"', async () => {
    const { updater, installs } = feedBackedAutoUpdater('1.2.0', 'darwin');
    const u = createUpdater({ autoUpdater: updater, currentVersion: '1.2.0', allowPrerelease: false, now: () => new Date('2026-11-23T12:00:00Z') });
    expect(updater.autoDownload).toBe(true);
    const seen: string[] = [];
    u.onStatus((s) => seen.push(`${s.state}${s.percent !== null ? `:${s.percent}` : ''}`));
    expect(u.restart()).toBe(false);
    const status = await u.check();
    expect(seen).toEqual(['checking', 'available:0', 'downloading:12.5', 'downloading:50', 'downloading:100', 'downloaded:100']);
    expect(status).toMatchObject({ state: 'downloaded', version: '1.3.1', currentVersion: '1.2.0', checkedAt: '2026-11-23T12:00:00.000Z' });
    // a later check does not replace a downloaded update
    await u.check();
    expect(u.status().state).toBe('downloaded');
    expect(u.restart()).toBe(true);
    expect(installs).toEqual([false]);
  });

  it('says up to date when the feed has nothing newer, and reports a broken feed without throwing', async () => {
    const current = feedBackedAutoUpdater('1.3.0', 'win32');
    const u = createUpdater({ autoUpdater: current.updater, currentVersion: '1.3.0', allowPrerelease: false });
    expect((await u.check()).state).toBe('upToDate');

    const broken = feedBackedAutoUpdater('1.3.0', 'linux');
    const b = createUpdater({ autoUpdater: broken.updater, currentVersion: '1.3.0', allowPrerelease: false, log: () => undefined });
    const status = await b.check();
    expect(status.state).toBe('error');
    expect(status.message).toMatch(/^Could not check for updates/);
  });

  it('checks at start and again on its interval', async () => {
    const { updater } = feedBackedAutoUpdater('1.3.0', 'win32');
    let checks = 0;
    const counting = { ...updater, on: updater.on, checkForUpdates: async () => void checks++ } as AutoUpdaterLike;
    const u = createUpdater({ autoUpdater: counting, currentVersion: '1.3.0', allowPrerelease: false, intervalMs: 30 });
    u.start();
    await new Promise((r) => setTimeout(r, 110));
    u.stop();
    expect(checks).toBeGreaterThanOrEqual(3);
  });
});
