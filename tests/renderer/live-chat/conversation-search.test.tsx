// @vitest-environment happy-dom
/**
 * Search inside a conversation: a match older than the messages the detail carries is reached by paging
 * back (GET /conversation/{id}/messages?before=); the bar counts the matches.
 */
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ConversationPage } from '../../../src/renderer/src/features/live-chat';
import { liveChatSearchSchema } from '../../../src/renderer/src/features/live-chat/utils/tabs';
import { DETAIL_MESSAGE_LIMIT } from '../../../src/renderer/src/features/live-chat/api/get-conversation';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { FakeEventSource, type FakeServer, fakeServer, withLayout } from './harness';
import { contact, ids, listEntry, message } from './fixtures';

let server: FakeServer;
let restoreLayout: () => void;
const base = Date.now() - 3600_000;
const at = (i: number) => new Date(base + i * 1000).toISOString();
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** happy-dom does no scrolling: a scroll position the virtualiser can set and read back, with its scroll event. */
function withScrolling() {
  const tops = new WeakMap<Element, number>();
  const top = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
  const scrollTo = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTo');
  Object.defineProperty(Element.prototype, 'scrollTop', {
    configurable: true,
    get(this: Element) { return tops.get(this) ?? 0; },
    set(this: Element, v: number) { tops.set(this, v); this.dispatchEvent(new Event('scroll')); },
  });
  Object.defineProperty(Element.prototype, 'scrollTo', {
    configurable: true,
    value(this: Element, opts: ScrollToOptions | number, y?: number) {
      (this as HTMLElement).scrollTop = typeof opts === 'number' ? (y ?? 0) : (opts.top ?? 0);
    },
  });
  return () => {
    if (top) Object.defineProperty(Element.prototype, 'scrollTop', top);
    if (scrollTo) Object.defineProperty(Element.prototype, 'scrollTo', scrollTo);
  };
}
let restoreScrolling: () => void;

beforeEach(() => {
  restoreLayout = withLayout(100);
  restoreScrolling = withScrolling();
  vi.stubGlobal('EventSource', FakeEventSource);
  useAuthStore.setState({
    status: 'ready',
    user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
    member: { id: ids.member, uid: 'u1', role: 'agent', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
  });
  server = fakeServer();
  server.on('GET', /\/workspace\/[^/]+$/, { id: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z', name: 'Acme', memberIds: [ids.member], Attribute: [], Member: [] });
  for (const path of [/\/bots$/, /\/attributes$/, /\/whatsapp-templates$/, /\/canned-replies$/, /\/mentions$/, /\/members$/]) server.on('GET', path, { items: [], nextCursor: null });
  server.on('GET', /\/mentions\/count$/, { unread: 0 });
  server.on('POST', /\/read$/, { success: true });
  // The detail carries the newest DETAIL_MESSAGE_LIMIT messages (ids 1000..1499); the match (id 7) is older.
  const newest = Array.from({ length: DETAIL_MESSAGE_LIMIT }, (_, k) =>
    message({ id: uuid(1000 + k), conversationId: ids.conversation, text: `message ${1000 + k}`, createdAt: at(1000 + k) }),
  );
  server.on('GET', new RegExp(`/conversation/${ids.conversation}$`), {
    ...listEntry({ id: ids.conversation }),
    Contact: contact({ name: 'Grace Hopper' }),
    ConversationEvent: [],
    Message: newest,
  });
  server.on('GET', /\/messages$/, ({ query }: { query: URLSearchParams }) => {
    expect(query.get('before')).toBe(uuid(1000));
    const older = Array.from({ length: 20 }, (_, k) => {
      const i = 19 - k; // newest first, as the route answers
      return message({ id: uuid(i), conversationId: ids.conversation, text: i === 7 ? 'The courier lost my parcel' : `older ${i}`, createdAt: at(i) });
    });
    return { body: { items: older, nextCursor: null } };
  });
  server.on('GET', /\/search$/, ({ query }: { query: URLSearchParams }) => ({
    body: query.get('q') === 'parcel' ? { matches: [{ id: uuid(7), createdAt: at(7) }], terms: ['parcel'] } : { matches: [], terms: [] },
  }));
});
afterEach(() => {
  cleanup();
  restoreLayout();
  restoreScrolling();
  vi.unstubAllGlobals();
});

it('pages back (before the oldest loaded message) to reach a match older than the loaded messages', async () => {
  const root = createRootRoute({ component: Outlet });
  const conv = createRoute({ getParentRoute: () => root, path: '/live-chat/$conversationId', validateSearch: liveChatSearchSchema, component: ConversationPage });
  const router = createRouter({ routeTree: root.addChildren([conv]), history: createMemoryHistory({ initialEntries: [`/live-chat/${ids.conversation}?tab=open`] }) });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await userEvent.click(await screen.findByTestId('conversation-search-toggle'));
  await userEvent.type(screen.getByRole('searchbox', { name: 'Search in this conversation' }), 'parcel');
  await waitFor(() => expect(screen.getByTestId('conversation-search-status')).toHaveTextContent('1 of 1'));
  await waitFor(() => expect(server.calls.some((c) => c.path.endsWith('/messages'))).toBe(true));
  // The older page holding the match is in the timeline (happy-dom does no layout, so whether the virtualised
  // row is scrolled into view is left to the browser; tests/e2e/live-chat-agents.spec.ts jumps between matches).
  expect((await screen.findAllByText(/^older \d+$/)).length).toBeGreaterThan(0);
});
