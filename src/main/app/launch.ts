// When the window exists and what it opens: the one place windows are created. A deep link (or a second launch,
// or a notification) that arrives before `ready`, during start-up, or before the page has loaded is kept and
// opened once the window's page is there; the latest one wins. Plain TypeScript over small adapters, so it is
// tested in Node (src/main/index.ts plugs in BrowserWindow and the core).

export interface LaunchAdapters<W> {
  /** creates the main window (its page starts loading) */
  createWindow(): W;
  /** shows, restores and focuses it */
  show(window: W): void;
  /** tells the page to open a route (core.navigate) */
  navigate(path: string): void;
}

export interface Launch<W> {
  /** open a route: now if the page is there, else once it is (creating the window when the app has started) */
  openPath(path: string | null): void;
  /** show the window (created if needed) once the app has started; before that, a no-op */
  showWindow(): void;
  /** the app is ready and its core started: the first window is created here */
  started(): void;
  /** the window's page finished loading: a kept route is opened */
  pageLoaded(window: W): void;
  /** the window is gone */
  windowClosed(window: W): void;
  window(): W | null;
}

export function createLaunch<W>(adapters: LaunchAdapters<W>, initialPath: string | null = null): Launch<W> {
  let isStarted = false;
  let current: W | null = null;
  let loaded = false;
  let pending: string | null = initialPath;

  const ensureWindow = (): W => {
    if (!current) {
      loaded = false;
      current = adapters.createWindow();
    }
    return current;
  };
  const flush = () => {
    if (!loaded || pending === null) return;
    const path = pending;
    pending = null;
    adapters.navigate(path);
  };

  return {
    openPath(path) {
      if (!path) return;
      pending = path;
      if (!isStarted) return;
      adapters.show(ensureWindow());
      flush();
    },
    showWindow() {
      if (isStarted) adapters.show(ensureWindow());
    },
    started() {
      if (isStarted) return;
      isStarted = true;
      ensureWindow();
    },
    pageLoaded(window) {
      if (window !== current) return;
      loaded = true;
      flush();
    },
    windowClosed(window) {
      if (window !== current) return;
      current = null;
      loaded = false;
    },
    window: () => current,
  };
}
