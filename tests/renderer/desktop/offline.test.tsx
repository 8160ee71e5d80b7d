// @vitest-environment happy-dom
/**
 * Offline browsing in the desktop app: with the server out of reach the screens read main's cache over IPC
 * (through the real preload bridge), say they are offline, keep changes disabled with the reason and keep
 * what the agent types; when main reports the server back, the app reads the server again without a reload.
 */
import '@testing-library/jest-dom/vitest';
import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from '@tanstack/react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SyncStatus } from '../../../src/shared/ipc';
import { App } from '../../../src/renderer/src/app/App';
import { createAppRouter } from '../../../src/renderer/src/app/router';
import { initAuth } from '../../../src/renderer/src/lib/auth';
import { useConnectivity } from '../../../src/renderer/src/lib/connectivity';
import { startDesktopRuntime } from '../../../src/renderer/src/lib/desktop-runtime';
import { desktopIdentity } from '../../../src/renderer/src/lib/identity/desktop-identity';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { defaultAnswers, fakeServer, meFixture, polyfillDom, verifiedUser } from '../support/app';
import { contact, listEntry, message } from '../live-chat/fixtures';
import { withLayout } from '../live-chat/harness';
import { fakeMain } from './fake-main';

// The whole app renders here; on a busy machine the first screen can take a few seconds.
configure({ asyncUtilTimeout: 5000 });
beforeAll(polyfillDom);
let stopRuntime: (() => void) | null = null;
let restoreLayout: (() => void) | null = null;
beforeEach(() => {
  restoreLayout = withLayout();
});
afterEach(() => {
  restoreLayout?.();
  stopRuntime?.();
  stopRuntime = null;
  delete (window as { desktop?: unknown }).desktop;
  useConnectivity.setState({ online: true, lastSyncedAt: null });
});

const conversationId = '44444444-4444-4444-8444-444444444444';
const status = (online: boolean): SyncStatus => ({
  state: online ? 'live' : 'offline',
  online,
  workspaceId: 'w1',
  lastSeq: 12,
  lastSyncedAt: '2026-11-23T08:30:00.000Z',
  message: online ? null : 'The Parley server cannot be reached',
});
const cachedMessage = message({ text: 'Where is my parcel?', createdAt: new Date(Date.now() - 3600_000).toISOString() });
const cachedEntry = listEntry({ workspaceId: 'w1', lastMessage: cachedMessage, unread: true });
const otherEntry = listEntry({
  id: '66666666-6666-4666-8666-666666666666',
  workspaceId: 'w1',
  Contact: contact({ id: '77777777-7777-4777-8777-777777777777', name: 'Alan Turing', phoneNumber: '+447700900123' }),
  lastMessage: message({ text: 'Thanks!', conversationId: '66666666-6666-4666-8666-666666666666' }),
  unread: true,
});
const unread = { me: 1, assigned: 1, open: 2, closed: 0 };

/** Main with a cache of two conversations; the server (fetch) is unreachable until `reachable` is set. */
function desktopApp(path: string) {
  let online = false;
  const server = fakeServer({
    ...defaultAnswers(),
    'GET /workspace/w1/conversations': {
      status: 200,
      body: { items: [listEntry({ workspaceId: 'w1', lastMessage: message({ text: 'Sent while you were away' }) })], nextCursor: null },
    },
    'GET /workspace/w1/conversations/counts': { status: 200, body: { me: 0, assigned: 0, open: 1, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } } },
  });
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', (...args: Parameters<typeof fetch>) => (online ? answer(...args) : Promise.reject(new TypeError('Failed to fetch'))));
  const drafts = new Map<string, string>([[conversationId, '']]);
  const main = fakeMain({
    'identity.currentUser': () => verifiedUser,
    'identity.getIdToken': () => ({ token: 'desktop-token', expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
    'sync.getStatus': () => status(online),
    'sync.setWorkspace': () => status(online),
    'sync.retry': () => status(online),
    'cache.getMe': () => meFixture('agent'),
    'cache.putMe': () => ({ ok: true }),
    'cache.listConversations': () => ({ items: [cachedEntry, otherEntry], nextCursor: null }),
    'cache.conversationCounts': () => ({ me: 1, assigned: 1, open: 2, closed: 0, unread }),
    'cache.getConversation': () => ({ ...cachedEntry, ConversationEvent: [], Message: [cachedMessage] }),
    'cache.searchContacts': () => ({ items: [contact({ name: 'Grace Brewster Hopper' })], nextCursor: null }),
    'drafts.get': (a) => ({ text: drafts.get((a as { conversationId: string }).conversationId) ?? '' }),
    'drafts.set': (a) => {
      const { conversationId: id, text } = a as { conversationId: string; text: string };
      drafts.set(id, text);
      return { ok: true };
    },
    'view.setCurrentConversation': () => ({ ok: true }),
    'badge.setUnreadCount': () => ({ ok: true }),
  });
  window.desktop = main.desktop;
  initAuth(desktopIdentity(main.desktop));
  const queryClient = createQueryClient();
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [path] }) });
  stopRuntime = startDesktopRuntime(main.desktop, queryClient, router);
  render(<App router={router} queryClient={queryClient} />);
  return {
    main,
    server,
    drafts,
    router,
    backOnline() {
      online = true;
      main.emit('sync.status', status(true));
    },
  };
}

describe('offline browsing (desktop)', () => {
  it('starts without the server: the cached inbox and conversation, read-only, with the reason and the banner', async () => {
    const app = desktopApp(`/live-chat/${conversationId}?tab=open`);

    expect(await screen.findByTestId('offline-banner')).toHaveTextContent('You are offline.');
    // The conversation and its messages come from the cache.
    expect(await screen.findByText('Where is my parcel?', { selector: 'p' })).toBeInTheDocument();
    const list = within(screen.getByRole('navigation', { name: 'Conversations' }));
    expect(list.getByRole('link', { name: /^Unread, Alan Turing/ })).toBeInTheDocument();
    // Tab counts from the cache.
    expect(screen.getByRole('tab', { name: 'Open (2)' })).toBeInTheDocument();

    // Nothing that changes anything can be used, and the screen says why.
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
    expect(screen.getByTestId('composer-offline')).toHaveTextContent('You are offline');

    // What the agent types is kept by main as the conversation's draft.
    await userEvent.type(screen.getByLabelText('Message'), 'I will check with the courier');
    await waitFor(() => expect(app.drafts.get(conversationId)).toBe('I will check with the courier'));

    // Main knows which conversation is on screen (no notification for it) and the badge figure.
    expect(app.main.callsOf('view.setCurrentConversation')).toContainEqual({ conversationId });
    await waitFor(() => expect(app.main.callsOf('badge.setUnreadCount')).toContainEqual({ count: 2 }));
    expect(app.main.callsOf('sync.setWorkspace')).toContainEqual({ workspaceId: 'w1' });
  });

  it('catches up when the server is back: the banner goes and the lists are read from the server again', async () => {
    const app = desktopApp('/live-chat?tab=open');
    await screen.findByTestId('offline-banner');
    expect(await screen.findByText('Where is my parcel?')).toBeInTheDocument();

    act(() => app.backOnline());
    await waitFor(() => expect(screen.queryByTestId('offline-banner')).not.toBeInTheDocument());
    expect(await screen.findByText('Sent while you were away')).toBeInTheDocument();
    expect(screen.queryByText('Where is my parcel?')).not.toBeInTheDocument();
    expect(app.server.some((c) => c.path.startsWith('/workspace/w1/conversations?'))).toBe(true);
    // The fresh /auth/me is handed to main for the next offline start.
    await waitFor(() => expect(app.main.callsOf('cache.putMe')).toHaveLength(1));
  });

  it('brings a kept draft back when the conversation opens again', async () => {
    const app = desktopApp(`/live-chat/${conversationId}?tab=open`);
    app.drafts.set(conversationId, 'Half a reply from yesterday');
    expect(await screen.findByDisplayValue('Half a reply from yesterday')).toBeInTheDocument();
  });

  it('searches contacts in the cache (any word) while offline', async () => {
    const app = desktopApp('/audience');
    await screen.findByTestId('offline-banner');
    await userEvent.type(await screen.findByLabelText('Search contacts'), 'brewster');
    expect(await screen.findByText('Grace Brewster Hopper')).toBeInTheDocument();
    await waitFor(() => expect(app.main.callsOf('cache.searchContacts')).toContainEqual({ search: 'brewster', limit: 100 }));
  });
});

describe('web mode', () => {
  it('has no offline banner and keeps drafts in localStorage', async () => {
    const { loadDraft, saveDraft } = await import('../../../src/renderer/src/lib/drafts');
    expect(window.desktop).toBeUndefined();
    await saveDraft(conversationId, 'typed on the web');
    expect(localStorage.getItem(`parley.draft.${conversationId}`)).toBe('typed on the web');
    expect(await loadDraft(conversationId)).toBe('typed on the web');
    await saveDraft(conversationId, '');
    expect(localStorage.getItem(`parley.draft.${conversationId}`)).toBeNull();
  });
});
