// Electron main process: wiring only. The logic lives in plain modules tested in Node (core.ts and what it
// uses, window.ts, app/*, update/*); this file plugs Electron's objects into them.
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, screen, session, shell, Tray } from 'electron';
import electronUpdater from 'electron-updater';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import icon from '../../resources/icon.png?asset';
import trayIcon from '../../resources/tray.png?asset';
import { deepLinkFromArgv, deepLinkPath, PROTOCOL } from './app/deep-link';
import { loadWindowState, saveWindowState, trayTooltip, windowStateFile } from './app/window-state';
import { desktopConfig } from './config';
import { createDesktopCore, type DesktopCore } from './core';
import { appCspHeader } from './csp';
import { assertKeychainReachable, osKeychain } from './identity/keychain';
import { registerIpcRouter, sendEvent } from './ipc/electron';
import { appSenderCheck } from './ipc/sender';
import { channelOf } from './update/decide';
import { noUpdater } from './update/port';
import { createUpdater } from './update/updater';
import { applyNavigationPolicy, createWindowOptions, isPermissionAllowed, resolveRendererEntry } from './window';

// Built layout (electron.vite.config.ts): out/main/index.js, out/preload/index.cjs, out/renderer/.
const here = dirname(fileURLToPath(import.meta.url));
const preloadPath = join(here, '../preload/index.cjs');
const rendererDir = join(here, '../renderer');

let mainWindow: BrowserWindow | null = null;
let core: DesktopCore | null = null;
let tray: Tray | null = null;
let quitting = false;
/** a route asked for before the window existed (deep link at launch) */
let pendingPath: string | null = deepLinkFromArgv(process.argv);

const appEntryUrl = () => resolveRendererEntry({ devServerUrl: process.env.ELECTRON_RENDERER_URL, isPackaged: app.isPackaged, rendererDir });

function showWindow(): void {
  if (!mainWindow) mainWindow = createMainWindow();
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function openPath(path: string | null): void {
  if (!path) return;
  showWindow();
  if (core) core.navigate(path);
  else pendingPath = path;
}

function createMainWindow(): BrowserWindow {
  const entry = appEntryUrl();
  const stateFile = windowStateFile(app.getPath('userData'));
  const saved = loadWindowState(stateFile, screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow({
    ...createWindowOptions({ preloadPath, iconPath: process.platform === 'linux' ? icon : undefined }),
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
  contents.on('did-finish-load', () => {
    const path = pendingPath;
    pendingPath = null;
    if (path) core?.navigate(path);
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(entry);
  return win;
}

function createTray(): Tray {
  const t = new Tray(nativeImage.createFromPath(trayIcon));
  t.setToolTip(trayTooltip(0));
  t.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Parley', click: () => showWindow() },
      { type: 'separator' },
      { label: 'Quit Parley', click: () => app.quit() },
    ]),
  );
  t.on('click', () => showWindow());
  return t;
}

function setBadge(count: number): void {
  // dock (macOS) and Unity launchers (Linux); Windows shows the count in the tray tooltip
  app.setBadgeCount(count);
  tray?.setToolTip(trayTooltip(count));
  if (process.platform === 'darwin') tray?.setTitle(count > 0 ? String(count) : '');
}

async function startCore(): Promise<DesktopCore> {
  const keychain = osKeychain('Parley');
  await assertKeychainReachable(keychain);
  const config = desktopConfig();
  const version = app.getVersion();
  const autoUpdate = app.isPackaged
    ? createUpdater({ autoUpdater: electronUpdater.autoUpdater, currentVersion: version, allowPrerelease: channelOf(version) !== 'latest' })
    : null;
  const updater = autoUpdate ?? noUpdater(version, 'Development builds do not update themselves');
  const entry = appEntryUrl();
  const started = await createDesktopCore({
    userDataDir: app.getPath('userData'),
    keychain,
    firebase: config.firebase,
    defaultServerUrl: config.defaultServerUrl,
    notifications: {
      show(notice, onClick) {
        if (!Notification.isSupported()) return;
        const n = new Notification({ title: notice.title, body: notice.body });
        n.on('click', onClick);
        n.show();
      },
    },
    window: { isFocused: () => !!mainWindow?.isFocused(), focus: () => showWindow() },
    openExternal: (url) => shell.openExternal(url),
    setBadge,
    updater,
    app: { version, platform: process.platform, electron: process.versions.electron ?? null },
    isTrustedSender: appSenderCheck(entry),
  });
  started.onEvent((event, payload) => sendEvent(mainWindow?.webContents, event, payload));
  registerIpcRouter(ipcMain, started.router);
  autoUpdate?.start();

  // The CSP names the one server the page may reach (rebuilt on every response, so a new address applies at once).
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    const csp = appCspHeader(details.url, entry, started.serverAddress.connectSrc());
    if (!csp) return callback({});
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  return started;
}

// Every renderer is sandboxed, whatever its webPreferences say.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // parley:// links: registered for this executable (in development, for electron + this app's path).
  if (process.defaultApp && process.argv[1]) app.setAsDefaultProtocolClient(PROTOCOL, process.execPath, [process.argv[1]]);
  else app.setAsDefaultProtocolClient(PROTOCOL);

  // A second launch (or a deep link on Windows / Linux) lands here: focus this one, follow its link.
  app.on('second-instance', (_event, argv) => {
    showWindow();
    openPath(deepLinkFromArgv(argv));
  });
  // macOS delivers deep links as open-url.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openPath(deepLinkPath(url));
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
    try {
      core = await startCore();
    } catch (error) {
      dialog.showErrorBox('Parley cannot start', error instanceof Error ? error.message : String(error));
      app.exit(1);
      return;
    }
    tray = createTray();
    mainWindow = createMainWindow();
    app.on('activate', () => showWindow());
  });
}
