// @vitest-environment happy-dom
/**
 * The "New messages" divider: opening a conversation shows it above the first customer message the
 * member had not read (the detail's `readAt`); it goes with the agent's reply, and a conversation read to the end
 * shows none.
 */
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ConversationPage } from '../../../src/renderer/src/features/live-chat';
import { liveChatSearchSchema } from '../../../src/renderer/src/features/live-chat/utils/tabs';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { FakeEventSource, type FakeServer, fakeServer, withLayout } from './harness';
import { contact, ids, listEntry, message } from './fixtures';

let server: FakeServer;
let restoreLayout: () => void;
const minute = 60_000;
const base = Date.now() - 60 * minute;
const at = (m: number) => new Date(base + m * minute).toISOString();
const thread = [
  message({ text: 'Hi, I ordered a lamp', creator: 'user', createdAt: at(1) }),
  message({ text: 'Thanks, we are on it', creator: 'agent', memberId: ids.member, status: 'read', createdAt: at(2) }),
  message({ text: 'It arrived broken', creator: 'user', createdAt: at(10) }),
  message({ text: 'Can I get a new one?', creator: 'user', createdAt: at(11) }),
];

function detailWith(readAt: string | null) {
  return { ...listEntry({ id: ids.conversation }), Contact: contact({ name: 'Grace Hopper' }), ConversationEvent: [], Message: thread, readAt };
}

beforeEach(() => {
  restoreLayout = withLayout(2000);
  vi.stubGlobal('EventSource', FakeEventSource);
  useAuthStore.setState({
    status: 'ready',
    user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
    member: { id: ids.member, uid: 'u1', role: 'agent', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
  });
  server = fakeServer();
  server.on('GET', /\/workspace\/[^/]+$/, { id: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z', name: 'Acme', memberIds: [ids.member], Attribute: [], Member: [] });
  for (const path of [/\/bots$/, /\/attributes$/, /\/whatsapp-templates$/, /\/canned-replies$/, /\/mentions$/, /\/members$/, /\/conversations$/]) server.on('GET', path, { items: [], nextCursor: null });
  server.on('GET', /\/mentions\/count$/, { unread: 0 });
  server.on('POST', /\/(read|presence)$/, { success: true });
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.unstubAllGlobals();
});

function open() {
  const root = createRootRoute({ component: Outlet });
  const conv = createRoute({ getParentRoute: () => root, path: '/live-chat/$conversationId', validateSearch: liveChatSearchSchema, component: ConversationPage });
  const router = createRouter({ routeTree: root.addChildren([conv]), history: createMemoryHistory({ initialEntries: [`/live-chat/${ids.conversation}?tab=open`] }) });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** The row texts of the timeline in order, the divider included. */
async function rows() {
  const region = await screen.findByRole('region', { name: 'Messages' });
  await within(region).findByText('Can I get a new one?');
  return [...region.querySelectorAll('[role="separator"][aria-label="New messages"], article')].map((el) =>
    el.getAttribute('role') === 'separator' ? '--- New messages ---' : (el.textContent ?? ''),
  );
}

it('shows "New messages" above the first customer message received after the read mark, and drops it on reply', async () => {
  server.on('GET', new RegExp(`/conversation/${ids.conversation}$`), detailWith(at(5)));
  server.on('POST', /\/message$/, ({ body }: { body: { text: string } }) => ({
    status: 201,
    body: message({ text: body.text, creator: 'agent', memberId: ids.member, status: 'sent', createdAt: new Date().toISOString() }),
  }));
  open();
  const order = await rows();
  const divider = order.indexOf('--- New messages ---');
  expect(divider).toBeGreaterThan(0);
  expect(order[divider - 1]).toContain('Thanks, we are on it');
  expect(order[divider + 1]).toContain('It arrived broken');
  expect(screen.getAllByRole('separator', { name: 'New messages' })).toHaveLength(1);

  // Opening it marked it read; the agent answers and the divider has done its job.
  await waitFor(() => expect(server.calls.some((c) => c.method === 'POST' && c.path.endsWith('/read'))).toBe(true));
  await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Sorry! A new one is on its way{Enter}');
  await waitFor(() => expect(screen.queryByRole('separator', { name: 'New messages' })).not.toBeInTheDocument());
});

it('shows no divider when the member had read everything, and one above the first customer message when never opened', async () => {
  server.on('GET', new RegExp(`/conversation/${ids.conversation}$`), detailWith(at(20)));
  open();
  expect(await rows()).not.toContain('--- New messages ---');
  cleanup();

  server.on('GET', new RegExp(`/conversation/${ids.conversation}$`), detailWith(null));
  open();
  const order = await rows();
  expect(order[0]).toBe('--- New messages ---');
  expect(order[1]).toContain('Hi, I ordered a lamp');
});
