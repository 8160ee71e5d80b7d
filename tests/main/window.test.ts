// The desktop window's security policy, tested in Node with fake Electron hooks.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it, expect, vi } from 'vitest';
import {
  applyNavigationPolicy,
  createWindowOptions,
  decideNavigation,
  handleWindowOpen,
  isExternalLink,
  isPermissionAllowed,
  resolveRendererEntry,
  type WebContentsHooks,
} from '../../src/main/window';
import { APP_ENTRY_URL, isAppUrl } from '../../src/main/app-origin';

const DEV_ENTRY = 'http://localhost:5173/';
const rendererDir = join('/opt', 'Parley', 'resources', 'app.asar', 'out', 'renderer');
/** the packaged app's page: the app's own scheme (src/main/app-protocol.ts), never file: */
const FILE_ENTRY = APP_ENTRY_URL;

/** Fake webContents: records the installed handlers so the test can fire events at them. */
function fakeContents() {
  const state = {
    openHandler: null as null | ((url: string) => { action: 'deny' }),
    willNavigate: null as null | ((url: string, prevent: () => void) => void),
    willRedirect: null as null | ((url: string, prevent: () => void) => void),
    willAttachWebview: null as null | ((prevent: () => void) => void),
  };
  const hooks: WebContentsHooks = {
    setWindowOpenHandler: (h) => void (state.openHandler = h),
    onWillNavigate: (l) => void (state.willNavigate = l),
    onWillRedirect: (l) => void (state.willRedirect = l),
    onWillAttachWebview: (l) => void (state.willAttachWebview = l),
  };
  /** fires a navigation-like event and tells whether it was prevented */
  const fire = (listener: ((url: string, prevent: () => void) => void) | null, url: string) => {
    let prevented = false;
    listener!(url, () => {
      prevented = true;
    });
    return prevented;
  };
  return { hooks, state, fire };
}

function install(appEntryUrl: string) {
  const opened: string[] = [];
  const contents = fakeContents();
  applyNavigationPolicy(contents.hooks, { appEntryUrl, openExternal: (url) => void opened.push(url) });
  return { ...contents, opened };
}

describe('createWindowOptions', () => {
  it('isolates and sandboxes the renderer, without Node and webviews', () => {
    const options = createWindowOptions({ preloadPath: '/app/out/preload/index.cjs' });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(options.show).toBe(false);
    expect(options).not.toHaveProperty('icon');
  });

  it('passes the icon when given', () => {
    expect(createWindowOptions({ preloadPath: '/p.cjs', iconPath: '/icon.png' }).icon).toBe('/icon.png');
  });
});

describe('resolveRendererEntry', () => {
  it('uses the dev server in development', () => {
    expect(resolveRendererEntry({ devServerUrl: 'http://localhost:5173', isPackaged: false })).toBe(
      'http://localhost:5173/',
    );
    expect(resolveRendererEntry({ devServerUrl: 'http://127.0.0.1:5174/', isPackaged: false })).toBe(
      'http://127.0.0.1:5174/',
    );
  });

  it('loads the built index.html when packaged or without a dev server', () => {
    expect(resolveRendererEntry({ devServerUrl: 'http://localhost:5173', isPackaged: true })).toBe(FILE_ENTRY);
    expect(resolveRendererEntry({ isPackaged: false })).toBe(FILE_ENTRY);
    expect(FILE_ENTRY).toBe('app://parley/index.html');
  });

  it('ignores a dev server URL that is not http(s) on loopback', () => {
    for (const devServerUrl of ['https://evil.example/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      expect(resolveRendererEntry({ devServerUrl, isPackaged: false })).toBe(FILE_ENTRY);
    }
  });
});

describe('isAppUrl', () => {
  it('accepts the dev server origin, any path', () => {
    expect(isAppUrl('http://localhost:5173/#/live-chat/42', DEV_ENTRY)).toBe(true);
    expect(isAppUrl('http://localhost:5173/some/route?x=1', DEV_ENTRY)).toBe(true);
  });

  it('refuses another port, host or scheme than the dev server', () => {
    expect(isAppUrl('http://localhost:4000/', DEV_ENTRY)).toBe(false);
    expect(isAppUrl('http://127.0.0.1:5173/', DEV_ENTRY)).toBe(false);
    expect(isAppUrl('https://localhost:5173/', DEV_ENTRY)).toBe(false);
    expect(isAppUrl('https://x.com/', DEV_ENTRY)).toBe(false);
  });

  it('accepts the app:// origin only, never file: (not even the built index.html on disk)', () => {
    expect(isAppUrl(`${FILE_ENTRY}#/live-chat/42`, FILE_ENTRY)).toBe(true);
    expect(isAppUrl(FILE_ENTRY, FILE_ENTRY)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', FILE_ENTRY)).toBe(false);
    expect(isAppUrl(pathToFileURL(join(rendererDir, 'index.html')).href, FILE_ENTRY)).toBe(false);
    expect(isAppUrl('app://evil/index.html', FILE_ENTRY)).toBe(false);
  });

  it('refuses garbage', () => {
    expect(isAppUrl('', DEV_ENTRY)).toBe(false);
    expect(isAppUrl('::::', FILE_ENTRY)).toBe(false);
  });
});

describe('isExternalLink', () => {
  it('is true only for http(s) URLs with a host', () => {
    expect(isExternalLink('https://x.com')).toBe(true);
    expect(isExternalLink('http://example.org/a?b=c')).toBe(true);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi', 'smb://host/share', 'ms-msdt:x', 'nope']) {
      expect(isExternalLink(url), url).toBe(false);
    }
  });
});

describe('new windows', () => {
  it('opens https://x.com in the system browser and denies the window', () => {
    const opened: string[] = [];
    expect(handleWindowOpen('https://x.com', (url) => void opened.push(url))).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://x.com']);
  });

  it('refuses javascript:, file: and other schemes without opening anything', () => {
    const opened: string[] = [];
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>1</script>', 'vbscript:x']) {
      expect(handleWindowOpen(url, (u) => void opened.push(u))).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual([]);
  });

  it('denies even a window on the app itself (packaged: file: is never opened)', () => {
    const { state, opened } = install(FILE_ENTRY);
    expect(state.openHandler!(`${FILE_ENTRY}#/settings`)).toEqual({ action: 'deny' });
    expect(opened).toEqual([]);
  });

  it('survives a failing openExternal (logged, no unhandled rejection)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(handleWindowOpen('https://x.com', () => Promise.reject(new Error('no browser')))).toEqual({ action: 'deny' });
    expect(handleWindowOpen('https://x.com', () => {
      throw new Error('no browser');
    })).toEqual({ action: 'deny' });
    await new Promise((r) => setTimeout(r, 0));
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});

describe('navigation', () => {
  it('decides allow / external / deny', () => {
    expect(decideNavigation('http://localhost:5173/#/audience', DEV_ENTRY)).toBe('allow');
    expect(decideNavigation('https://x.com', DEV_ENTRY)).toBe('external');
    expect(decideNavigation('javascript:alert(1)', DEV_ENTRY)).toBe('deny');
    expect(decideNavigation('file:///etc/passwd', FILE_ENTRY)).toBe('deny');
    expect(decideNavigation(`${FILE_ENTRY}#/campaigns`, FILE_ENTRY)).toBe('allow');
  });

  it('lets in-app navigation through', () => {
    const { state, fire, opened } = install(FILE_ENTRY);
    expect(fire(state.willNavigate, `${FILE_ENTRY}#/live-chat/7`)).toBe(false);
    expect(opened).toEqual([]);
  });

  it('blocks navigation away from the app and opens http(s) links externally', () => {
    const { state, fire, opened } = install(DEV_ENTRY);
    expect(fire(state.willNavigate, 'https://x.com/')).toBe(true);
    expect(opened).toEqual(['https://x.com/']);
  });

  it('blocks javascript: and file: navigation without opening anything', () => {
    const { state, fire, opened } = install(DEV_ENTRY);
    expect(fire(state.willNavigate, 'javascript:alert(1)')).toBe(true);
    expect(fire(state.willNavigate, 'file:///etc/passwd')).toBe(true);
    expect(opened).toEqual([]);
  });

  it('blocks redirects away from the app without opening them', () => {
    const { state, fire, opened } = install(DEV_ENTRY);
    expect(fire(state.willRedirect, 'http://localhost:5173/#/home')).toBe(false);
    expect(fire(state.willRedirect, 'https://phish.example/')).toBe(true);
    expect(opened).toEqual([]);
  });

  it('refuses to attach webviews', () => {
    const { state } = install(DEV_ENTRY);
    let prevented = false;
    state.willAttachWebview!(() => {
      prevented = true;
    });
    expect(prevented).toBe(true);
  });

  it('installs every hook', () => {
    const { state } = install(DEV_ENTRY);
    expect(state.openHandler).toBeTypeOf('function');
    expect(state.willNavigate).toBeTypeOf('function');
    expect(state.willRedirect).toBeTypeOf('function');
    expect(state.willAttachWebview).toBeTypeOf('function');
  });
});

describe('permissions', () => {
  it('grants clipboard writes to the app only', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'http://localhost:5173/', DEV_ENTRY)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://x.com/', DEV_ENTRY)).toBe(false);
  });

  it('refuses everything else', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen']) {
      expect(isPermissionAllowed(permission, 'http://localhost:5173/', DEV_ENTRY), permission).toBe(false);
    }
  });
});
