// Electron main process: wiring only. The logic lives in plain modules tested in Node (core.ts and what it
// uses, window.ts, app-protocol.ts, app/*, update/*); this file plugs Electron's objects into them.
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, protocol, screen, session, shell, Tray } from 'electron';
import electronUpdater from 'electron-updater';
import fs from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import icon from '../../resources/icon.png?asset';
import trayIcon from '../../resources/tray.png?asset';
import { APP_SCHEME } from './app-origin';
import { appResponse, appSchemePrivileges } from './app-protocol';
import { deepLinkFromArgv, deepLinkPath, PROTOCOL } from './app/deep-link';
import { createLaunch } from './app/launch';
import { loadWindowState, saveWindowState, trayTooltip, windowStateFile } from './app/window-state';
import { desktopConfig } from './config';
import { createDesktopCore, type DesktopCore } from './core';
import { appCspHeader } from './csp';
import { chooseKeychain, osKeychain, sessionOnlyNotice } from './identity/keychain';
import { registerIpcRouter, sendEvent } from './ipc/electron';
import { appSenderCheck } from './ipc/sender';
import { notificationText } from './notify/notifier';
import { channelOf } from './update/decide';
import { checkUpdateFeed } from './update/feed';
import { noUpdater } from './update/port';
import { createUpdater } from './update/updater';
import {
  applyNavigationPolicy,
  createWindowOptions,
  isDevicePermissionAllowed,
  isPermissionAllowed,
  isPermissionCheckAllowed,
  resolveRendererEntry,
} from './window';

// Built layout (electron.vite.config.ts): out/main/index.js, out/preload/index.cjs, out/renderer/.
const here = dirname(fileURLToPath(import.meta.url));
const preloadPath = join(here, '../preload/index.cjs');
const rendererDir = join(here, '../renderer');

let core: DesktopCore | null = null;
let tray: Tray | null = null;
let quitting = false;
/** why the session is kept for this run only (no OS keychain), shown in the tray's account line */
let sessionOnly: string | null = null;

const appEntryUrl = () => resolveRendererEntry({ devServerUrl: process.env.ELECTRON_RENDERER_URL, isPackaged: app.isPackaged });

// Windows are created in one place (launch.ts); deep links wait there until the window's page is loaded.
const launch = createLaunch<BrowserWindow>(
  {
    createWindow: () => createMainWindow(),
    show: (win) => {
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    },
    navigate: (path) => core?.navigate(path),
  },
  deepLinkFromArgv(process.argv),
);
const mainWindow = () => launch.window();

function createMainWindow(): BrowserWindow {
  const entry = appEntryUrl();
  const stateFile = windowStateFile(app.getPath('userData'));
  const saved = loadWindowState(stateFile, screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow({
    ...createWindowOptions({ preloadPath, iconPath: process.platform === 'linux' ? icon : undefined, devTools: !app.isPackaged }),
    ...(saved ? { x: saved.x, y: saved.y, width: saved.width, height: saved.height } : {}),
  });
  if (saved?.maximized) win.maximize();
  const contents = win.webContents;

  applyNavigationPolicy(
    {
      setWindowOpenHandler: (handler) => contents.setWindowOpenHandler(({ url }) => handler(url)),
      onWillNavigate: (listener) => contents.on('will-navigate', (event) => listener(event.url, () => event.preventDefault())),
      onWillRedirect: (listener) => contents.on('will-redirect', (event) => listener(event.url, () => event.preventDefault())),
      onWillAttachWebview: (listener) => contents.on('will-attach-webview', (event) => listener(() => event.preventDefault())),
    },
    { appEntryUrl: entry, openExternal: (url) => shell.openExternal(url) },
  );

  const remember = () => {
    if (win.isDestroyed() || win.isMinimized()) return;
    const bounds = win.isMaximized() ? win.getNormalBounds() : win.getBounds();
    saveWindowState(stateFile, { ...bounds, maximized: win.isMaximized() });
  };
  let saveTimer: NodeJS.Timeout | undefined;
  const rememberSoon = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(remember, 500);
  };
  win.on('resize', rememberSoon);
  win.on('move', rememberSoon);
  // Closing the window keeps the app in the tray (notifications keep coming); Quit is in the tray menu.
  win.on('close', (event) => {
    remember();
    if (!quitting && tray) {
      event.preventDefault();
      win.hide();
    }
  });
  win.once('ready-to-show', () => win.show());
  contents.on('did-finish-load', () => launch.pageLoaded(win));
  win.on('closed', () => launch.windowClosed(win));
  void win.loadURL(entry);
  return win;
}

function createTray(): Tray {
  const t = new Tray(nativeImage.createFromPath(trayIcon));
  t.setToolTip(trayTooltip(0));
  t.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Parley', click: () => launch.showWindow() },
      ...(sessionOnly ? [{ label: sessionOnlyNotice, enabled: false }] : []),
      { type: 'separator' },
      { label: 'Quit Parley', click: () => app.quit() },
    ]),
  );
  t.on('click', () => launch.showWindow());
  return t;
}

function setBadge(count: number): void {
  // dock (macOS) and Unity launchers (Linux); Windows shows the count in the tray tooltip
  app.setBadgeCount(count);
  tray?.setToolTip(trayTooltip(count));
  if (process.platform === 'darwin') tray?.setTitle(count > 0 ? String(count) : '');
}

/** The updater of a packaged build, only with an https feed (src/main/update/feed.ts). */
function updaterFor(version: string) {
  if (!app.isPackaged) return { port: noUpdater(version, 'Development builds do not update themselves'), start: () => undefined };
  let feedText: string | null = null;
  try {
    feedText = fs.readFileSync(join(process.resourcesPath, 'app-update.yml'), 'utf8');
  } catch {
    feedText = null;
  }
  const feed = checkUpdateFeed(feedText);
  if (!feed.ok) return { port: noUpdater(version, feed.reason), start: () => undefined };
  const updater = createUpdater({ autoUpdater: electronUpdater.autoUpdater, currentVersion: version, allowPrerelease: channelOf(version) !== 'latest' });
  return { port: updater, start: () => updater.start() };
}

async function startCore(): Promise<DesktopCore> {
  const keychain = await chooseKeychain(osKeychain('Parley'));
  sessionOnly = keychain.persistent ? null : keychain.reason;
  if (sessionOnly) console.warn(`[parley] ${sessionOnlyNotice} (${sessionOnly})`);
  const config = desktopConfig(process.env, { isPackaged: app.isPackaged });
  const version = app.getVersion();
  const updater = updaterFor(version);
  const entry = appEntryUrl();
  const started = await createDesktopCore({
    userDataDir: app.getPath('userData'),
    keychain: keychain.store,
    firebase: config.firebase,
    defaultServerUrl: config.defaultServerUrl,
    notifications: {
      show(notice, onClick) {
        if (!Notification.isSupported()) return;
        const n = new Notification(notificationText(notice, process.platform));
        n.on('click', onClick);
        n.show();
      },
    },
    window: { isFocused: () => !!mainWindow()?.isFocused(), focus: () => launch.showWindow() },
    openExternal: (url) => shell.openExternal(url),
    setBadge,
    updater: updater.port,
    app: { version, platform: process.platform, electron: process.versions.electron ?? null, sessionNotice: sessionOnly ? sessionOnlyNotice : null },
    isTrustedSender: appSenderCheck(entry),
    async confirmServerChange(origin) {
      const options = {
        type: 'warning' as const,
        buttons: ['Cancel', 'Use this server'],
        defaultId: 0,
        cancelId: 0,
        title: 'Change the Parley server',
        message: `Connect Parley to ${origin}?`,
        detail: 'You will sign in on that server. Only continue if your organization gave you this address.',
      };
      const win = mainWindow();
      const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
      return response === 1;
    },
    // The page is loaded again so its CSP (header and meta) names the new server.
    onServerChanged: () => mainWindow()?.webContents.reloadIgnoringCache(),
  });
  started.onEvent((event, payload) => sendEvent(mainWindow()?.webContents, event, payload));
  registerIpcRouter(ipcMain, started.router);
  updater.start();

  // The app's page on app://parley/: files of out/renderer only, with the CSP naming the current server.
  protocol.handle(APP_SCHEME, (request) => {
    const answer = appResponse(request.url, rendererDir, started.serverAddress.connectSrc());
    return new Response(new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
  });
  // The dev server's page gets the same header (rebuilt on every response, so a new address applies at once).
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    const csp = appCspHeader(details.url, entry, started.serverAddress.connectSrc());
    if (!csp) return callback({});
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  return started;
}

// Every renderer is sandboxed, whatever its webPreferences say.
app.enableSandbox();
// app:// must be registered before `ready`: a standard, secure scheme of the app's own.
protocol.registerSchemesAsPrivileged([appSchemePrivileges]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // parley:// links: registered for this executable (in development, for electron + this app's path).
  if (process.defaultApp && process.argv[1]) app.setAsDefaultProtocolClient(PROTOCOL, process.execPath, [process.argv[1]]);
  else app.setAsDefaultProtocolClient(PROTOCOL);

  // A second launch (or a deep link on Windows / Linux) lands here: focus this one, follow its link.
  app.on('second-instance', (_event, argv) => {
    launch.showWindow();
    launch.openPath(deepLinkFromArgv(argv));
  });
  // macOS delivers deep links as open-url, possibly before `ready`: launch.ts keeps them.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    launch.openPath(deepLinkPath(url));
  });
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('will-quit', () => void core?.dispose());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin' && !tray) app.quit();
  });

  void app.whenReady().then(async () => {
    if (process.platform === 'win32') app.setAppUserModelId('app.parley.desktop');
    const entry = appEntryUrl();
    session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
      callback(isPermissionAllowed(permission, details.requestingUrl, entry));
    });
    session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionCheckAllowed(permission, requestingOrigin, entry));
    session.defaultSession.setDevicePermissionHandler(() => isDevicePermissionAllowed());
    try {
      core = await startCore();
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      console.error(`[parley] cannot start: ${message}`);
      dialog.showErrorBox('Parley cannot start', message);
      app.exit(1);
      return;
    }
    tray = createTray();
    launch.started();
    app.on('activate', () => launch.showWindow());
  });
}
