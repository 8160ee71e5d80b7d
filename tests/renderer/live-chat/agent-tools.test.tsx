// @vitest-environment happy-dom
/**
 * The agents' tools in the renderer: shortcuts never fire while typing, J/K step through the list on screen,
 * "waiting since" on a conversation whose last message is the customer's and the "Longest waiting" order
 * (sort=waiting), the unread count in the title.
 */
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConversationPage, LiveChatPage } from '../../../src/renderer/src/features/live-chat';
import { liveChatSearchSchema } from '../../../src/renderer/src/features/live-chat/utils/tabs';
import { neighbourOf } from '../../../src/renderer/src/features/live-chat/hooks/use-conversation-shortcuts';
import { useLiveChatUi } from '../../../src/renderer/src/features/live-chat/hooks/use-live-chat-ui';
import { applySignal } from '../../../src/renderer/src/features/live-chat/hooks/use-presence';
import { PresenceBar } from '../../../src/renderer/src/features/live-chat/components/presence-bar';
import { formatWaiting, waitingSinceOf } from '../../../src/renderer/src/features/live-chat/utils/format';
import { withUnread } from '../../../src/renderer/src/app/unread-title';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { shortcutOf } from '../../../src/renderer/src/lib/shortcuts';
import { useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { FakeEventSource, type FakeServer, fakeServer, withLayout } from './harness';
import { contact, ids, listEntry, message } from './fixtures';

const key = (k: string, target: EventTarget, mods: Partial<KeyboardEvent> = {}) =>
  shortcutOf({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, target, ...mods });

describe('shortcut keys', () => {
  it('are text, not shortcuts, in a field; Ctrl+K opens the switcher from anywhere', () => {
    const input = document.createElement('input');
    const textarea = document.createElement('textarea');
    const div = document.createElement('div');
    expect(key('j', input)).toBeNull();
    expect(key('e', textarea)).toBeNull();
    expect(key('?', input, { shiftKey: true })).toBeNull();
    expect(key('j', div)).toBe('next');
    expect(key('K', div)).toBe('previous');
    expect(key('e', div)).toBe('closeNext');
    expect(key('a', div)).toBe('assignMe');
    expect(key('r', div)).toBe('composer');
    expect(key('?', div, { shiftKey: true })).toBe('sheet');
    expect(key('k', textarea, { ctrlKey: true })).toBe('switcher');
    // A letter with a modifier is the browser's (Ctrl+J: downloads), never ours.
    expect(key('j', div, { ctrlKey: true })).toBeNull();
    expect(key('a', div, { altKey: true })).toBeNull();
  });

  it('never fire inside an open dialog or menu', () => {
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const button = document.createElement('button');
    dialog.append(button);
    expect(key('j', button)).toBeNull();
  });

  it('step to the neighbour in the list on screen, the first one when none is open', () => {
    expect(neighbourOf(['a', 'b', 'c'], undefined, 1)).toBe('a');
    expect(neighbourOf(['a', 'b', 'c'], undefined, -1)).toBe('c');
    expect(neighbourOf(['a', 'b', 'c'], 'b', 1)).toBe('c');
    expect(neighbourOf(['a', 'b', 'c'], 'b', -1)).toBe('a');
    expect(neighbourOf(['a', 'b', 'c'], 'c', 1)).toBeNull();
    expect(neighbourOf([], 'c', 1)).toBeNull();
  });
});

describe('waiting since and the title count', () => {
  it('counts how long the customer waits, and only while their message is the last one', () => {
    const now = new Date('2026-11-25T12:00:00.000Z');
    expect(formatWaiting('2026-11-25T11:55:00.000Z', now)).toBe('5 min');
    expect(formatWaiting('2026-11-25T09:50:00.000Z', now)).toBe('2 h 10 min');
    expect(formatWaiting('2026-11-22T12:00:00.000Z', now)).toBe('3 d');
    const fromCustomer = message({ creator: 'user', createdAt: '2026-11-25T11:00:00.000Z' });
    const fromAgent = message({ creator: 'agent', createdAt: '2026-11-25T11:30:00.000Z' });
    expect(waitingSinceOf({ lastMessage: fromCustomer })).toBe('2026-11-25T11:00:00.000Z');
    expect(waitingSinceOf({ lastMessage: fromCustomer, waitingSince: '2026-11-25T10:00:00.000Z' })).toBe('2026-11-25T10:00:00.000Z');
    expect(waitingSinceOf({ lastMessage: fromAgent, waitingSince: '2026-11-25T10:00:00.000Z' })).toBeNull();
  });

  it('puts the unread total before the screen name', () => {
    expect(withUnread('Audience · Parley', 0)).toBe('Audience · Parley');
    expect(withUnread('Audience · Parley', 3)).toBe('(3) Audience · Parley');
    expect(withUnread('Audience · Parley', 250)).toBe('(99+) Audience · Parley');
  });
});

let server: FakeServer;
let restoreLayout: () => void;

function renderAt(url: string) {
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/live-chat', validateSearch: liveChatSearchSchema, component: LiveChatPage });
  const conv = createRoute({ getParentRoute: () => root, path: '/live-chat/$conversationId', validateSearch: liveChatSearchSchema, component: ConversationPage });
  const history = createMemoryHistory({ initialEntries: [url] });
  const router = createRouter({ routeTree: root.addChildren([list, conv]), history });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router };
}

const first = '11111111-aaaa-4aaa-8aaa-111111111111';
const second = '22222222-aaaa-4aaa-8aaa-222222222222';

describe('the conversation list', () => {
  beforeEach(() => {
    restoreLayout = withLayout();
    vi.stubGlobal('EventSource', FakeEventSource);
    useLiveChatUi.setState({ sort: 'recent', panelOpen: null });
    useAuthStore.setState({
      status: 'ready',
      user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
      member: { id: ids.member, uid: 'u1', role: 'agent', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
    });
    server = fakeServer();
    server.on('GET', /\/conversations\/counts$/, { me: 0, assigned: 0, open: 2, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } });
    const waitingSince = new Date(Date.now() - 12 * 60_000).toISOString();
    server.on('GET', /\/workspace\/[^/]+\/conversations$/, ({ query }: { query: URLSearchParams }) => ({
      body: {
        items:
          query.get('sort') === 'waiting'
            ? [listEntry({ id: first, Contact: contact({ name: 'Grace Waiting' }), waitingSince, lastMessage: message({ creator: 'user', createdAt: waitingSince }) })]
            : [
                listEntry({ id: first, Contact: contact({ name: 'Grace Waiting' }), waitingSince, lastMessage: message({ creator: 'user', createdAt: waitingSince }) }),
                listEntry({ id: second, Contact: contact({ id: '66666666-6666-4666-8666-666666666666', name: 'Alan Answered' }), waitingSince: null, lastMessage: message({ creator: 'agent' }) }),
              ],
        nextCursor: null,
      },
    }));
    server.on('GET', /\/workspace\/[^/]+$/, { id: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z', name: 'Acme', memberIds: [ids.member], Attribute: [], Member: [] });
    server.on('GET', /\/bots$/, { items: [], nextCursor: null });
  });
  afterEach(() => {
    cleanup();
    restoreLayout();
    vi.unstubAllGlobals();
  });

  it('shows how long a customer has waited, and "Longest waiting" asks the server for sort=waiting', async () => {
    renderAt('/live-chat?tab=open');
    const nav = await screen.findByRole('navigation', { name: 'Conversations' });
    await screen.findByText('Alan Answered');
    const chips = screen.getAllByTestId('waiting-since');
    expect(chips).toHaveLength(1);
    expect(chips[0]).toHaveTextContent('12 min');
    expect(nav.querySelector(`[data-conversation-id="${first}"]`)).toContainElement(chips[0]);

    await userEvent.click(screen.getByRole('button', { name: 'Longest waiting' }));
    await waitFor(() => expect(screen.queryByText('Alan Answered')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Longest waiting' })).toHaveAttribute('aria-pressed', 'true');
    expect(server.calls.some((c) => /\/conversations$/.test(c.path) && c.query.get('sort') === 'waiting')).toBe(true);
  });

  it('J opens the first conversation of the list, J again the next; typed in the search box it is text', async () => {
    const { router } = renderAt('/live-chat?tab=open');
    await screen.findByText('Alan Answered');
    const search = screen.getByRole('searchbox', { name: 'Search conversations' });
    await userEvent.type(search, 'j');
    expect(router.state.location.pathname).toBe('/live-chat');
    await userEvent.clear(search);
    search.blur();
    fireEvent.keyDown(document.body, { key: 'j' });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/live-chat/${first}`));
    fireEvent.keyDown(document.body, { key: 'j' });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/live-chat/${second}`));
  });
});

describe('presence', () => {
  const signal = (memberId: string, state: 'viewing' | 'typing' | 'left') => ({
    workspaceId: ids.workspace,
    conversationId: ids.conversation,
    memberId,
    state,
    at: new Date().toISOString(),
  });

  it('keeps one state per teammate, forgets one who left, and drops expired ones', () => {
    let p = applySignal([], signal('m1', 'viewing'), 1000);
    p = applySignal(p, signal('m2', 'typing'), 1000);
    p = applySignal(p, signal('m1', 'typing'), 2000);
    expect(p.map((x) => [x.memberId, x.state])).toEqual([
      ['m2', 'typing'],
      ['m1', 'typing'],
    ]);
    p = applySignal(p, signal('m2', 'left'), 2500);
    expect(p.map((x) => x.memberId)).toEqual(['m1']);
    // A typing signal holds 8 s: a later signal of someone else drops it once expired.
    p = applySignal(p, signal('m3', 'viewing'), 2000 + 8001);
    expect(p.map((x) => x.memberId)).toEqual(['m3']);
  });

  it('says who types and who views, by name', () => {
    const names = { member: (id: string | null | undefined) => (id === 'm1' ? 'Grace Hopper' : id === 'm2' ? 'Alan Turing' : null), bot: () => null };
    render(
      <PresenceBar
        present={[
          { memberId: 'm1', state: 'typing', until: Date.now() + 5000 },
          { memberId: 'm2', state: 'viewing', until: Date.now() + 5000 },
        ]}
        names={names}
      />,
    );
    const bar = screen.getByRole('status');
    expect(bar).toHaveTextContent('Grace Hopper is typing…');
    expect(bar).toHaveTextContent('Alan Turing is viewing');
  });
});
