/**
 * The desktop app in Chromium: the BUILT renderer (out/renderer, as a packaged app ships it), every request of
 * the page answered by the same code that answers app://parley/ in the app (src/main/app-protocol.ts
 * appResponse: the files of out/renderer only, main's CSP header naming the current server, index.html's meta
 * policy narrowed to it).
 *
 * The page's origin is a stand-in, http://localhost:47391 (never listened on: Playwright answers it), not
 * app://parley: Chromium without Electron has no way to register a standard custom scheme (Electron's
 * protocol.registerSchemesAsPrivileged), so it treats app: as an external protocol and aborts the navigation
 * (net::ERR_ABORTED) before any request reaches Playwright's router. The stand-in is a secure context on loopback,
 * as app://parley is a secure origin in the app (an http origin elsewhere would be refused loopback access by
 * Chromium's private network rules). Everything past the origin's name is the app's: the same bytes and headers,
 * the same CSP, the same sender check on the same path. The server's CORS answer to the real origin
 * (app://parley) is tested in tests/server/desktop-origin.test.ts. The page gets `window.desktop` built by the REAL preload code (src/preload/api.ts, bundled into an
 * init script) on top of a Playwright binding that calls the REAL main-process core (src/main/core.ts: identity
 * in the OS keychain, the SQLite cache, sync, notifications) running in this test's Node process, which takes
 * calls only from the app's page in the top frame (src/main/ipc/sender.ts, as in the app). Events main sends
 * are dispatched into the page. Needs a keychain: run under `keyctl session`.
 *
 * The server is reached through a gate (a TCP relay in this process) so a test can make it unreachable and
 * reachable again, as a server going down and coming back looks to the app, while the shared stack keeps running.
 */
import { buildSync } from 'esbuild';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, Route } from '@playwright/test';
import { APP_ORIGIN } from '../../../src/main/app-origin';
import { appResponse } from '../../../src/main/app-protocol';
import { createDesktopCore, type DesktopCore } from '../../../src/main/core';
import { osKeychain } from '../../../src/main/identity/keychain';
import { appSenderCheck } from '../../../src/main/ipc/sender';
import { recordingNotifications } from '../../support/recording-notifications';
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

/** The stand-in origin of app://parley in Chromium (see the comment at the top). */
const STAND_IN_ORIGIN = 'http://localhost:47391';
/** The page a packaged app's window loads (app://parley/index.html), on the stand-in origin. */
export const desktopAppUrl = resolveRendererEntry({ isPackaged: true }).replace(APP_ORIGIN, STAND_IN_ORIGIN);

/** Answers the page's requests on the stand-in origin exactly as the app's app:// handler answers them. */
async function serveAppFile(route: Route, connectSrc: () => readonly string[]): Promise<void> {
  const url = new URL(route.request().url());
  const answer = appResponse(`${APP_ORIGIN}${url.pathname}${url.search}`, rendererDir, connectSrc());
  await route.fulfill({ status: answer.status, body: answer.body, headers: answer.headers });
}

export interface DesktopApp {
  /** the app's page (app://parley/index.html on its stand-in origin); add `#/route` to open a screen */
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
  // What the app's permission handler grants its own page (src/main/window.ts): reaching the server on loopback.
  await context.grantPermissions(['local-network-access'], { origin: STAND_IN_ORIGIN });
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
  // The app's origin is answered by the app's own protocol handler code; nothing else of it exists.
  await context.route((url) => url.origin === STAND_IN_ORIGIN, (route) => serveAppFile(route, () => core.serverAddress.connectSrc()));
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
