// Window options and the navigation / new-window / permission policy of the desktop app.
//
// Plain functions over small adapter objects, so they run (and are tested) in Node without
// Electron: src/main/index.ts plugs the real BrowserWindow / webContents / shell into them.
// Only type imports from electron here; they are erased at build time.
import type { BrowserWindowConstructorOptions } from 'electron';
import { APP_ENTRY_URL, isAppUrl, parseUrl } from './app-origin';

export interface WindowOptionsInput {
  /** absolute path of the built preload script (CommonJS, see electron.vite.config.ts) */
  preloadPath: string;
  /** window icon (used on Linux and Windows; macOS takes the bundle icon) */
  iconPath?: string;
  /** DevTools: development only (a packaged build passes false) */
  devTools?: boolean;
}

/** BrowserWindow options: isolated, sandboxed, no Node in the renderer, no webviews. */
export function createWindowOptions({ preloadPath, iconPath, devTools = false }: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: 'Parley',
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    // Shown on 'ready-to-show' to avoid a white flash.
    show: false,
    autoHideMenuBar: true,
    ...(iconPath ? { icon: iconPath } : {}),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
      devTools,
    },
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface RendererEntryInput {
  /** ELECTRON_RENDERER_URL, set by electron-vite's dev server */
  devServerUrl?: string;
  /** app.isPackaged: a packaged app never loads a dev server */
  isPackaged: boolean;
}

/**
 * The URL the window loads: the dev server in development (only an http(s) loopback URL is
 * accepted), otherwise the built renderer on the app's own scheme (app://parley/index.html,
 * served by src/main/app-protocol.ts).
 */
export function resolveRendererEntry({ devServerUrl, isPackaged }: RendererEntryInput): string {
  if (!isPackaged && devServerUrl) {
    const url = parseUrl(devServerUrl);
    if (url && (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)) {
      return url.href;
    }
  }
  return APP_ENTRY_URL;
}

/** Only http(s) links are handed to the system browser; javascript:, file:, custom schemes never. */
export function isExternalLink(target: string): boolean {
  const url = parseUrl(target);
  return !!url && (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
}

export type OpenExternal = (url: string) => Promise<void> | void;

/** Hands `url` to the system browser; a failure (no browser, refused) is logged, never thrown. */
function openSafely(openExternal: OpenExternal, url: string): void {
  const report = (error: unknown) => console.warn(`[parley] could not open ${url} externally:`, error);
  try {
    void Promise.resolve(openExternal(url)).catch(report);
  } catch (error) {
    report(error);
  }
}

/** setWindowOpenHandler: no new windows, ever; http(s) links open in the system browser. */
export function handleWindowOpen(target: string, openExternal: OpenExternal): { action: 'deny' } {
  if (isExternalLink(target)) openSafely(openExternal, target);
  return { action: 'deny' };
}

export type NavigationDecision = 'allow' | 'external' | 'deny';

/** will-navigate / will-redirect: stay inside the app; an http(s) link elsewhere opens externally. */
export function decideNavigation(target: string, appEntryUrl: string): NavigationDecision {
  if (isAppUrl(target, appEntryUrl)) return 'allow';
  return isExternalLink(target) ? 'external' : 'deny';
}

/** The Electron hooks the policy needs, reduced to plain callbacks (see src/main/index.ts). */
export interface WebContentsHooks {
  setWindowOpenHandler(handler: (url: string) => { action: 'deny' }): void;
  /** will-navigate (links, location changes) */
  onWillNavigate(listener: (url: string, prevent: () => void) => void): void;
  /** will-redirect (server redirects of a navigation) */
  onWillRedirect(listener: (url: string, prevent: () => void) => void): void;
  /** will-attach-webview */
  onWillAttachWebview(listener: (prevent: () => void) => void): void;
}

export interface NavigationPolicyOptions {
  appEntryUrl: string;
  openExternal: OpenExternal;
}

/** Installs the new-window and navigation policy on one window's web contents. */
export function applyNavigationPolicy(hooks: WebContentsHooks, { appEntryUrl, openExternal }: NavigationPolicyOptions): void {
  hooks.setWindowOpenHandler((url) => handleWindowOpen(url, openExternal));

  const guard = (url: string, prevent: () => void, followExternal: boolean) => {
    const decision = decideNavigation(url, appEntryUrl);
    if (decision === 'allow') return;
    prevent();
    if (decision === 'external' && followExternal) {
      openSafely(openExternal, url);
    }
  };
  hooks.onWillNavigate((url, prevent) => guard(url, prevent, true));
  // A redirect is not a user's click: block it without opening anything.
  hooks.onWillRedirect((url, prevent) => guard(url, prevent, false));
  hooks.onWillAttachWebview((prevent) => prevent());
}

/**
 * Permissions the app's own pages may use; everything else is refused. Besides the clipboard write (copy
 * buttons), Chromium's local network access: the one server the CSP allows may be on this computer or the
 * office network (a self-hosted Parley), and an app:// page counts as public address space.
 */
const APP_PERMISSIONS = new Set(['clipboard-sanitized-write', 'local-network-access', 'local-network', 'loopback-network']);

/**
 * Session permission requests (camera, microphone, geolocation, notifications, ...). Only the
 * app itself may write to the clipboard (copy buttons); nothing else is granted to web content.
 * Desktop notifications are shown by the main process, not requested by the page.
 */
export function isPermissionAllowed(permission: string, requestingUrl: string, appEntryUrl: string): boolean {
  return APP_PERMISSIONS.has(permission) && isAppUrl(requestingUrl, appEntryUrl);
}

/**
 * setPermissionCheckHandler (the synchronous "is it granted?" checks, e.g. navigator.permissions.query or
 * a clipboard read): the same answer as a request, judged on the requesting origin.
 */
export function isPermissionCheckAllowed(permission: string, requestingOrigin: string, appEntryUrl: string): boolean {
  if (!APP_PERMISSIONS.has(permission)) return false;
  const entry = parseUrl(appEntryUrl);
  return !!entry && isAppUrl(`${requestingOrigin.replace(/\/$/, '')}${entry.pathname}`, appEntryUrl);
}

/** setDevicePermissionHandler (HID, serial, USB, Bluetooth): never. */
export function isDevicePermissionAllowed(): false {
  return false;
}
