// Start-up that cannot be bricked and the smaller main-process policies: deep links
// kept until the window is there, one place creating windows, no keychain no refusal, notification text and
// clicks, packaged builds without development overrides, permission checks, DevTools.
import { describe, expect, it } from 'vitest';
import { createLaunch } from '../../src/main/app/launch';
import { desktopConfig } from '../../src/main/config';
import { chooseKeychain, KeychainUnavailableError, type SecretStore } from '../../src/main/identity/keychain';
import { noticeClickPath, notificationText } from '../../src/main/notify/notifier';
import { createWindowOptions, isDevicePermissionAllowed, isPermissionCheckAllowed } from '../../src/main/window';
import { ipcEvents } from '../../src/shared/ipc';

describe('launch: deep links and the one place windows are created', () => {
  const harness = (initial: string | null = null) => {
    const log: string[] = [];
    let n = 0;
    const launch = createLaunch(
      {
        createWindow: () => {
          const w = `window-${++n}`;
          log.push(`create ${w}`);
          return w;
        },
        show: (w) => log.push(`show ${w}`),
        navigate: (p) => log.push(`navigate ${p}`),
      },
      initial,
    );
    return { launch, log };
  };

  it('keeps a deep link that arrives before ready, and opens it once the first window has loaded', () => {
    const { launch, log } = harness();
    launch.openPath('/live-chat/abc');
    launch.showWindow();
    expect(log).toEqual([]);
    launch.started();
    expect(log).toEqual(['create window-1']);
    launch.pageLoaded('window-1');
    expect(log).toEqual(['create window-1', 'navigate /live-chat/abc']);
    launch.pageLoaded('window-1');
    expect(log.filter((l) => l.startsWith('navigate'))).toHaveLength(1);
  });

  it('opens the link of the launch arguments, and later links at once; never two windows', () => {
    const { launch, log } = harness('/live-chat/first');
    launch.started();
    launch.openPath('/live-chat/second');
    expect(log).toEqual(['create window-1', 'show window-1']);
    launch.pageLoaded('window-1');
    expect(log.at(-1)).toBe('navigate /live-chat/second');
    launch.openPath('/live-chat/third');
    expect(log.slice(-2)).toEqual(['show window-1', 'navigate /live-chat/third']);
    expect(log.filter((l) => l.startsWith('create'))).toEqual(['create window-1']);
  });

  it('creates the window again after it was closed, and waits for its page', () => {
    const { launch, log } = harness();
    launch.started();
    launch.pageLoaded('window-1');
    launch.windowClosed('window-1');
    launch.openPath('/live-chat/x');
    expect(log.slice(-2)).toEqual(['create window-2', 'show window-2']);
    launch.pageLoaded('window-1');
    expect(log.at(-1)).toBe('show window-2');
    launch.pageLoaded('window-2');
    expect(log.at(-1)).toBe('navigate /live-chat/x');
  });
});

describe('no OS keychain', () => {
  it('starts with a keychain in memory for this run, and says why', async () => {
    const broken: SecretStore = {
      get: async () => {
        throw new KeychainUnavailableError(new Error('no Secret Service'));
      },
      set: async () => {
        throw new KeychainUnavailableError(new Error('no Secret Service'));
      },
      delete: async () => false,
    };
    const chosen = await chooseKeychain(broken);
    expect(chosen.persistent).toBe(false);
    expect(!chosen.persistent && chosen.reason).toContain('no Secret Service');
    await chosen.store.set('k', 'v');
    expect(await chosen.store.get('k')).toBe('v');
    expect(await chosen.store.delete('k')).toBe(true);
  });
});

describe('notifications', () => {
  it('escapes markup in the body on Linux only', () => {
    const notice = { title: 'Bob <b>Boss</b>', body: '<a href="https://evil.example">click</a> & <img src=x>' };
    expect(notificationText(notice, 'linux').body).toBe('&lt;a href=&quot;https://evil.example&quot;&gt;click&lt;/a&gt; &amp; &lt;img src=x&gt;');
    expect(notificationText(notice, 'darwin')).toEqual(notice);
  });

  it('a click opens a route the navigate event accepts, whatever the conversation id', () => {
    for (const id of ['3f6c1a2e-0000-4000-8000-000000000001', 'a b', '../../etc', 'x'.repeat(300), '']) {
      const path = noticeClickPath(id);
      expect(() => ipcEvents.navigate.parse({ path }), id).not.toThrow();
    }
    expect(noticeClickPath('abc-1')).toBe('/live-chat/abc-1');
    expect(noticeClickPath('a b')).toBe('/live-chat');
  });
});

describe('packaged builds', () => {
  const hostile = { FIREBASE_AUTH_EMULATOR_HOST: 'evil.example:9099', PARLEY_AUTH_EMULATOR: 'evil.example:9099', PARLEY_API_URL: 'https://evil.example' };
  it('ignore the development overrides of the environment', () => {
    const packaged = desktopConfig(hostile, { isPackaged: true });
    expect(packaged.defaultServerUrl).toBeNull();
    expect(packaged.firebase.authEmulatorHost).not.toBe('evil.example:9099');
    // development still takes them (npm start passes them)
    expect(desktopConfig(hostile, { isPackaged: false })).toMatchObject({ defaultServerUrl: 'https://evil.example', firebase: { authEmulatorHost: 'evil.example:9099' } });
  });

  it('have DevTools closed', () => {
    expect(createWindowOptions({ preloadPath: '/p.cjs', devTools: false }).webPreferences?.devTools).toBe(false);
    expect(createWindowOptions({ preloadPath: '/p.cjs' }).webPreferences?.devTools).toBe(false);
  });
});

describe('permission checks', () => {
  const entry = 'app://parley/index.html';
  it('grant the clipboard write to the app itself only, nothing else, and no device ever', () => {
    expect(isPermissionCheckAllowed('clipboard-sanitized-write', 'app://parley', entry)).toBe(true);
    expect(isPermissionCheckAllowed('clipboard-sanitized-write', 'https://evil.example', entry)).toBe(false);
    for (const permission of ['media', 'geolocation', 'notifications', 'hid', 'serial', 'usb', 'clipboard-read']) {
      expect(isPermissionCheckAllowed(permission, 'app://parley', entry), permission).toBe(false);
    }
    expect(isDevicePermissionAllowed()).toBe(false);
  });
});
