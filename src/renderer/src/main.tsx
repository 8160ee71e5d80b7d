import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAppRouter } from './app/router';
import { initAuth } from './lib/auth';
import { getDesktop } from './lib/desktop';
import { loadServerAddress, startDesktopRuntime } from './lib/desktop-runtime';
import { queryClient } from './lib/query-client';
import { startTheme } from './lib/theme';
// Noto Color Emoji (OFL) as the last fallback of .emoji-text: a system without an emoji font shows emoji, not
// boxes. Split by unicode-range, so only the ranges on screen are loaded.
import '@fontsource/noto-color-emoji/400.css';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

async function start(container: HTMLElement) {
  startTheme();
  const desktop = getDesktop();
  // The desktop app may be pointed at another server than the build's default: ask before any request.
  if (desktop) await loadServerAddress().catch((err) => console.error('[desktop] no server address', err));
  initAuth();
  const router = createAppRouter({ queryClient });
  if (desktop) startDesktopRuntime(desktop, queryClient, router);

  createRoot(container).render(
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>,
  );
}

void start(root);
