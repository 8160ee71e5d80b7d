// @vitest-environment happy-dom
/**
 * A customer who writes between the list's first read and the moment the event stream opens: the stream starts
 * where the log is then (its `position`), so that message's event never comes. The list reads again on that
 * position, and shows the conversation.
 */
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { LiveChatPage } from '../../../src/renderer/src/features/live-chat';
import { liveChatSearchSchema } from '../../../src/renderer/src/features/live-chat/utils/tabs';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { FakeEventSource, type FakeServer, fakeServer, withLayout } from './harness';
import { contact, ids, listEntry } from './fixtures';

let server: FakeServer;
let restoreLayout: () => void;
let customers: string[];

beforeEach(() => {
  restoreLayout = withLayout();
  vi.stubGlobal('EventSource', FakeEventSource);
  FakeEventSource.instances = [];
  useAuthStore.setState({
    status: 'ready',
    user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
    member: { id: ids.member, uid: 'u1', role: 'agent', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
  });
  customers = [];
  server = fakeServer();
  server.on('GET', /\/conversations\/counts$/, () => ({ body: { me: 0, assigned: 0, open: customers.length, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } } }));
  server.on('GET', /\/workspace\/[^/]+\/conversations$/, () => ({ body: { items: customers.map((name) => listEntry({ Contact: contact({ name }) })), nextCursor: null } }));
  server.on('GET', /\/workspace\/[^/]+$/, { id: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z', name: 'Acme', memberIds: [ids.member], Attribute: [], Member: [] });
  server.on('GET', /\/bots$/, { items: [], nextCursor: null });
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.unstubAllGlobals();
});

function renderList() {
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/live-chat', validateSearch: liveChatSearchSchema, component: LiveChatPage });
  const router = createRouter({ routeTree: root.addChildren([list]), history: createMemoryHistory({ initialEntries: ['/live-chat?tab=open'] }) });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const listReads = () => server.calls.filter((c) => /\/conversations$/.test(c.path)).length;

it('reads the list again when a stream opened without a resume point says where it starts', async () => {
  renderList();
  await vi.waitFor(() => expect(listReads()).toBeGreaterThan(0));
  await vi.waitFor(() => expect(FakeEventSource.instances.length).toBeGreaterThan(0));
  expect(FakeEventSource.instances[0].url).not.toContain('lastEventId');
  // Written after the list was read and before the stream started: no event will tell of it.
  customers.push('Lena Booking');
  const before = listReads();
  await act(async () => FakeEventSource.emit('position', '', '41'));
  expect(await screen.findByText('Lena Booking')).toBeInTheDocument();
  expect(listReads()).toBeGreaterThan(before);
});
