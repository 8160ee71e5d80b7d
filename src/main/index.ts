// Electron main process: wiring only. The policies live in plain modules (window.ts) that are
// tested in Node; this file plugs Electron's objects into them.
import { app, BrowserWindow, session, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import icon from '../../resources/icon.png?asset';
import {
  applyNavigationPolicy,
  createWindowOptions,
  isPermissionAllowed,
  resolveRendererEntry,
} from './window';

// Built layout (electron.vite.config.ts): out/main/index.js, out/preload/index.cjs, out/renderer/.
const here = dirname(fileURLToPath(import.meta.url));
const preloadPath = join(here, '../preload/index.cjs');
const rendererDir = join(here, '../renderer');

let mainWindow: BrowserWindow | null = null;

function rendererEntry(): string {
  return resolveRendererEntry({
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    isPackaged: app.isPackaged,
    rendererDir,
  });
}

function createMainWindow(): BrowserWindow {
  const appEntryUrl = rendererEntry();
  const win = new BrowserWindow(
    createWindowOptions({ preloadPath, iconPath: process.platform === 'linux' ? icon : undefined }),
  );
  const contents = win.webContents;

  applyNavigationPolicy(
    {
      setWindowOpenHandler: (handler) => contents.setWindowOpenHandler(({ url }) => handler(url)),
      onWillNavigate: (listener) => contents.on('will-navigate', (event) => listener(event.url, () => event.preventDefault())),
      onWillRedirect: (listener) => contents.on('will-redirect', (event) => listener(event.url, () => event.preventDefault())),
      onWillAttachWebview: (listener) => contents.on('will-attach-webview', (event) => listener(() => event.preventDefault())),
    },
    { appEntryUrl, openExternal: (url) => shell.openExternal(url) },
  );

  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(appEntryUrl);
  return win;
}

// Every renderer is sandboxed, whatever its webPreferences say.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  void app.whenReady().then(() => {
    if (process.platform === 'win32') app.setAppUserModelId('app.parley.desktop');

    const appEntryUrl = rendererEntry();
    session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
      callback(isPermissionAllowed(permission, details.requestingUrl, appEntryUrl));
    });

    mainWindow = createMainWindow();

    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
    });
  });
}
