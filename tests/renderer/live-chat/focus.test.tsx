// @vitest-environment happy-dom
/**
 * Focus follows the work in live chat, and names never hide state. The real live-chat screens under a
 * memory router against a fake server (harness.tsx).
 */
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConversationPage, LiveChatPage } from '../../../src/renderer/src/features/live-chat';
import { liveChatSearchSchema } from '../../../src/renderer/src/features/live-chat/utils/tabs';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { FakeEventSource, type FakeServer, fakeServer, withLayout } from './harness';
import { contact, ids, listEntry, message } from './fixtures';

const LONG_NAME = 'Maximilian Alexander Wolfeschlegelsteinhausenbergerdorff-Smith';
let server: FakeServer;
let restoreLayout: () => void;

const rowIds = ['a1111111-1111-4111-8111-111111111111', 'a2222222-2222-4222-8222-222222222222', 'a3333333-3333-4333-8333-333333333333'];
const rows = rowIds.map((id, i) =>
  listEntry({
    id,
    contactId: id,
    Contact: contact({ id, name: ['Grace Hopper', 'Alan Turing', 'Ada Byron'][i], phoneNumber: `+1415555012${i}` }),
    lastMessage: message({ conversationId: id, text: `A long last message from customer ${i} that says a great deal` }),
  }),
);

function renderAt(url: string) {
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/live-chat', validateSearch: liveChatSearchSchema, component: LiveChatPage });
  const conv = createRoute({ getParentRoute: () => root, path: '/live-chat/$conversationId', validateSearch: liveChatSearchSchema, component: ConversationPage });
  const router = createRouter({ routeTree: root.addChildren([list, conv]), history: createMemoryHistory({ initialEntries: [url] }) });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

function serveConversation(id: string, name: string) {
  server.on('GET', new RegExp(`/conversation/${id}$`), {
    ...listEntry({ id, contactId: id }),
    Contact: contact({ id, name }),
    ConversationEvent: [],
    // The customer wrote a minute ago: the 24-hour window is open, so the composer can send.
    Message: [message({ conversationId: id, text: 'Where is my order?', createdAt: new Date(Date.now() - 60_000).toISOString() })],
  });
}

beforeEach(() => {
  restoreLayout = withLayout();
  vi.stubGlobal('EventSource', FakeEventSource);
  useAuthStore.setState({
    status: 'ready',
    user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
    member: { id: ids.member, uid: 'u1', role: 'agent', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
  });
  server = fakeServer();
  server.on('GET', /\/conversations\/counts$/, { me: 0, assigned: 2, open: 3, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } });
  server.on('GET', /\/workspace\/[^/]+\/conversations$/, ({ query }: { query: URLSearchParams }) => ({
    body: { items: query.get('tab') === 'open' ? rows : [], nextCursor: null },
  }));
  server.on('GET', /\/workspace\/[^/]+$/, { id: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z', name: 'Acme', memberIds: [ids.member], Attribute: [], Member: [] });
  server.on('GET', /\/bots$/, { items: [], nextCursor: null });
  server.on('GET', /\/contact\/[^/]+\/conversations$/, { items: [], nextCursor: null });
  server.on('GET', /\/attributes$/, { items: [], nextCursor: null });
  server.on('GET', /\/whatsapp-templates$/, { items: [], nextCursor: null });
  for (const [i, id] of rowIds.entries()) serveConversation(id, ['Grace Hopper', 'Alan Turing', 'Ada Byron'][i]);
  serveConversation(ids.conversation, LONG_NAME);
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.unstubAllGlobals();
});

const listLinks = () => within(screen.getByRole('navigation', { name: 'Conversations' })).getAllByRole('link');

describe('the conversation list', () => {
  it('is one Tab stop; arrow keys move between rows and take the Tab stop with them', async () => {
    renderAt('/live-chat?tab=open');
    await screen.findByRole('link', { name: /Grace Hopper/ });
    expect(listLinks().map((l) => l.tabIndex)).toEqual([0, -1, -1]);
    await act(async () => listLinks()[0].focus());
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(listLinks()[1]);
    expect(listLinks().map((l) => l.tabIndex)).toEqual([-1, 0, -1]);
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(listLinks()[2]);
    await userEvent.keyboard('{Home}');
    expect(document.activeElement).toBe(listLinks()[0]);
  });

  it('says why it could not be loaded, and Try again loads it', async () => {
    let fail = true;
    server.on('GET', /\/workspace\/[^/]+\/conversations$/, () =>
      fail ? { status: 403, body: { statusCode: 403, message: 'Not a member of this workspace', error: 'Forbidden' } } : { body: { items: rows, nextCursor: null } },
    );
    renderAt('/live-chat?tab=open');
    expect(await screen.findByRole('heading', { name: 'Conversations could not be loaded' })).toBeInTheDocument();
    expect(screen.getByText('403: Not a member of this workspace')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: /Grace Hopper/ })).toBeInTheDocument();
  });

  it('names each row by contact, state and time, with the last message as its description only', async () => {
    renderAt('/live-chat?tab=open');
    const row = await screen.findByRole('link', { name: /Grace Hopper/ });
    expect(row).toHaveAccessibleName(/^Grace Hopper\s*, unassigned, \S+/);
    expect(row).not.toHaveAccessibleName(/long last message/);
    expect(row).toHaveAccessibleDescription(/A long last message from customer 0/);
  });

  it('Enter on a row opens the conversation with the cursor in the composer; Escape goes back to that row', async () => {
    const router = renderAt('/live-chat?tab=open');
    const row = await screen.findByRole('link', { name: /Alan Turing/ });
    await act(async () => row.focus());
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/live-chat/${rowIds[1]}`));
    const composer = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(document.activeElement).toBe(composer));

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/live-chat'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: /Alan Turing/ })));
  });

  it('an empty default Closed tab says how many conversations wait in the other tabs and links to them', async () => {
    renderAt('/live-chat?tab=closed');
    expect(await screen.findByText('5 conversations wait in other tabs:')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Assigned (2)' })).toHaveAttribute('href', '/live-chat?tab=assigned');
    expect(screen.getByRole('link', { name: 'Open (3)' })).toHaveAttribute('href', '/live-chat?tab=open');
    expect(screen.queryByRole('link', { name: /^Me/ })).toBeNull();
  });
});

describe('the conversation header', () => {
  it('truncates a long name (full name in its tooltip) while state, phone and assignee stay outside the truncation', async () => {
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    const heading = await screen.findByRole('heading', { level: 1, name: LONG_NAME });
    expect(heading).toHaveClass('truncate', 'min-w-0');
    expect(heading).toHaveAttribute('title', LONG_NAME);
    const header = heading.closest('header')!;
    const badge = within(header).getByText('Open');
    expect(heading).not.toContainElement(badge);
    expect(badge).toHaveClass('shrink-0');
    const phone = within(header).getByText(/\+14155550123/);
    expect(phone).toHaveClass('shrink-0');
    expect(within(header).getByText('Unassigned')).toHaveClass('truncate');
  });

  it('closing the conversation and "Assign to me" leave focus on the header, not the page body', async () => {
    const closed = { ...listEntry({ id: ids.conversation }), isActive: false, Contact: contact({ name: LONG_NAME }) };
    server.on('PATCH', /\/conversation\/[^/]+$/, ({ body }: { body: { isActive?: boolean; assigneeMemberId?: string } }) => ({
      body: body.isActive === false ? closed : { ...listEntry({ id: ids.conversation }), assigneeMemberId: body.assigneeMemberId ?? null },
    }));
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    const close = await screen.findByRole('button', { name: 'Close' });
    // The detail refetch after the change answers the closed conversation.
    server.on('GET', new RegExp(`/conversation/${ids.conversation}$`), { ...closed, ConversationEvent: [], Message: [] });
    await userEvent.click(close);
    const reopen = await screen.findByRole('button', { name: 'Reopen' });
    expect(document.activeElement).toBe(reopen);

    const assign = screen.getByRole('button', { name: /^Assign/ });
    await userEvent.click(assign);
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Assign to me' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'PATCH' && (c.body as { assigneeMemberId?: string }).assigneeMemberId === ids.member)).toBe(true));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Assign/ })));
    expect(document.activeElement).not.toBe(document.body);
  });

  it('hiding the contact panel puts focus on the button that shows it again', async () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1440 });
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    const panel = await screen.findByRole('complementary', { name: 'Contact' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Hide contact details' }));
    const toggle = screen.getByRole('button', { name: 'Show contact details' });
    await waitFor(() => expect(document.activeElement).toBe(toggle));
  });
});
