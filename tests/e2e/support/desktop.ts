/**
 * The desktop app in Chromium: the BUILT renderer (out/renderer, as a packaged app ships it) loaded from the
 * file: URL a packaged app's window loads (src/main/window.ts resolveRendererEntry), its files answered from
 * disk with the CSP header main adds to the app's page (src/main/csp.ts appCspHeader, naming the current
 * server). The page gets `window.desktop` built by the REAL preload code (src/preload/api.ts, bundled into an
 * init script) on top of a Playwright binding that calls the REAL main-process core (src/main/core.ts: identity
 * in the OS keychain, the SQLite cache, sync, notifications) running in this test's Node process, which takes
 * calls only from the app's page in the top frame (src/main/ipc/sender.ts, as in the app). Events main sends
 * are dispatched into the page. Needs a keychain: run under `keyctl session`.
 *
 * The server is reached through a gate (a TCP relay in this process) so a test can make it unreachable and
 * reachable again, as a server going down and coming back looks to the app, while the shared stack keeps running.
 */
import { buildSync } from 'esbuild';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, Route } from '@playwright/test';
import { createDesktopCore, type DesktopCore } from '../../../src/main/core';
import { appCspHeader } from '../../../src/main/csp';
import { osKeychain } from '../../../src/main/identity/keychain';
import { appSenderCheck } from '../../../src/main/ipc/sender';
import { recordingNotifications } from '../../../src/main/notify/notifier';
import { resolveRendererEntry } from '../../../src/main/window';
import { ipcEventPrefix, ipcInvokePrefix } from '../../../src/shared/ipc';
import { aliases } from '../../../scripts/build/aliases';
import { rendererDir } from './renderer-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let bundled: string | null = null;
/** The preload's window.desktop factory, as one script run before the page's own. */
function preloadInitScript(): string {
  bundled ??= buildSync({
    stdin: {
      contents: `
        import { createDesktopApi } from './src/preload/api';
        const listeners = new Map();
        window.__parleyDispatch = (channel, payload) => { for (const l of listeners.get(channel) ?? []) l(payload); };
        window.desktop = createDesktopApi({
          invoke: (channel, arg) => window.__parleyInvoke(channel, arg),
          subscribe: (channel, listener) => {
            if (!listeners.has(channel)) listeners.set(channel, new Set());
            listeners.get(channel).add(listener);
            return () => listeners.get(channel).delete(listener);
          },
        });`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    alias: aliases(root),
    format: 'iife',
    platform: 'browser',
    write: false,
  }).outputFiles[0].text;
  return bundled;
}

/** A TCP relay to `target` that can refuse connections (server "down") and accept them again. */
export async function serverGate(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    /** The server goes away: open connections (the event streams) break, new ones are refused. */
    async down() {
      const s = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    up: listen,
  };
}

/** The page a packaged app's window loads: out/renderer/index.html as a file: URL. */
export const desktopAppUrl = resolveRendererEntry({ isPackaged: true, rendererDir });

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * Answers the page's file: requests as the packaged app's window gets them: the files of out/renderer from
 * disk (anything outside it does not exist for the app), the app's page with main's CSP header.
 */
async function serveAppFile(route: Route, connectSrc: () => readonly string[]): Promise<void> {
  const url = route.request().url();
  const file = path.resolve(fileURLToPath(url));
  if (!file.startsWith(rendererDir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    await route.fulfill({ status: 404, body: '' });
    return;
  }
  const csp = appCspHeader(url, desktopAppUrl, connectSrc());
  await route.fulfill({
    status: 200,
    body: fs.readFileSync(file),
    headers: { 'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream', ...(csp ? { 'content-security-policy': csp } : {}) },
  });
}

export interface DesktopApp {
  /** the app's page (file: URL of the built renderer); add `#/route` to open a screen */
  url: string;
  page: Page;
  context: BrowserContext;
  core: DesktopCore;
  notifications: ReturnType<typeof recordingNotifications>;
  /** "quits": the page and the core go; the keychain entry and the cache stay. */
  quit(): Promise<void>;
}

/** Starts the main-process core and a page wired to it (one "launch" of the app). */
export async function launchDesktopApp(
  browser: Browser,
  opts: { userDataDir: string; keychainService: string; serverUrl: string; emulatorHost: string },
): Promise<DesktopApp> {
  const notifications = recordingNotifications();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const core = await createDesktopCore({
    userDataDir: opts.userDataDir,
    keychain: osKeychain(opts.keychainService),
    firebase: { apiKey: 'demo-parley-local-key', projectId: 'demo-parley', authEmulatorHost: opts.emulatorHost },
    firebaseAppName: 'parley-desktop-e2e',
    defaultServerUrl: opts.serverUrl,
    notifications,
    // The window is in the background, as when a notification matters.
    window: { isFocused: () => false, focus: () => void page.bringToFront() },
    openExternal: () => undefined,
    app: { version: '0.0.0-e2e', platform: process.platform, electron: null },
    // Only the app's own page, main frame, may call (the app's own check).
    isTrustedSender: appSenderCheck(desktopAppUrl),
    sync: { retryDelayMs: [300, 1500] },
    log: () => undefined,
  });
  await page.exposeBinding('__parleyInvoke', ({ frame }, channel: string, arg: unknown) =>
    core.invoke(channel.slice(ipcInvokePrefix.length), arg, { url: frame.url(), isMainFrame: frame === page.mainFrame() }),
  );
  // Chromium's file: handling (module scripts from file: are refused) is not Electron's: the files are answered here.
  await context.route((url) => url.protocol === 'file:', (route) => serveAppFile(route, () => core.serverAddress.connectSrc()));
  await page.addInitScript({ content: preloadInitScript() });
  const stopEvents = core.onEvent((event, payload) => {
    void page
      .evaluate(([channel, p]) => (window as unknown as { __parleyDispatch?: (c: string, p: unknown) => void }).__parleyDispatch?.(channel, p), [
        ipcEventPrefix + event,
        payload,
      ] as const)
      .catch(() => undefined);
  });
  return {
    url: desktopAppUrl,
    page,
    context,
    core,
    notifications,
    async quit() {
      stopEvents();
      await context.close();
      await core.dispose();
    },
  };
}
