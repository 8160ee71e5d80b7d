// @vitest-environment happy-dom
/**
 * Workspace message search: the dialog reached from the live-chat header lists every matching message
 * with its contact, a snippet with the words marked and the time; ↓ and Enter open the chosen one's conversation,
 * which pages back to the message (it is older than the messages the detail carries) and marks the words there.
 */
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ConversationPage, LiveChatPage } from '../../../src/renderer/src/features/live-chat';
import { liveChatSearchSchema } from '../../../src/renderer/src/features/live-chat/utils/tabs';
import { snippetAround } from '../../../src/renderer/src/features/live-chat/utils/snippet';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { FakeEventSource, type FakeServer, fakeServer, withLayout } from './harness';
import { contact, ids, listEntry, message } from './fixtures';

let server: FakeServer;
let restoreLayout: () => void;
let restoreScrolling: () => void;

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
const uuid = (i: number) => `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`;
const other = '66666666-6666-4666-8666-666666666666';
const alan = { id: '77777777-7777-4777-8777-777777777777', name: 'Alan Turing', phoneNumber: '+447700900123' };
const longText = `${'We talked about many things before. '.repeat(8)}The courier left the parcel at the neighbour's door, and nobody told me.`;

beforeEach(() => {
  restoreLayout = withLayout(600);
  restoreScrolling = withScrolling();
  vi.stubGlobal('EventSource', FakeEventSource);
  useAuthStore.setState({
    status: 'ready',
    user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
    member: { id: ids.member, uid: 'u1', role: 'agent', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
  });
  server = fakeServer();
  server.on('GET', /\/workspace\/[^/]+$/, { id: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z', name: 'Acme', memberIds: [ids.member], Attribute: [], Member: [] });
  for (const path of [/\/bots$/, /\/attributes$/, /\/whatsapp-templates$/, /\/canned-replies$/, /\/mentions$/, /\/members$/, /\/conversations$/]) server.on('GET', path, { items: [], nextCursor: null });
  server.on('GET', /\/conversations\/counts$/, { me: 0, assigned: 0, open: 2, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } });
  server.on('GET', /\/mentions\/count$/, { unread: 0 });
  server.on('POST', /\/(read|presence)$/, { success: true });
  // Alan's conversation: the detail carries 500 newer messages; the hit is on the older page.
  const newest = Array.from({ length: 500 }, (_, k) => message({ id: uuid(1000 + k), conversationId: other, text: `recent ${k}`, createdAt: new Date(Date.UTC(2026, 10, 24, 10, 0, k)).toISOString() }));
  server.on('GET', new RegExp(`/conversation/${other}$`), { ...listEntry({ id: other }), Contact: contact({ id: alan.id, name: alan.name, phoneNumber: alan.phoneNumber }), ConversationEvent: [], Message: newest });
  server.on('GET', new RegExp(`/conversation/${other}/messages$`), {
    items: [message({ id: uuid(7), conversationId: other, text: longText, createdAt: '2026-11-20T08:00:00.000Z' })],
    nextCursor: null,
  });
  server.on('GET', /\/messages\/search$/, ({ query }: { query: URLSearchParams }) => ({
    body:
      query.get('q') === 'parcel'
        ? {
            items: [
              { message: message({ id: uuid(8), text: 'Is my parcel on its way?', createdAt: '2026-11-24T09:00:00.000Z' }), contact: { id: ids.contact, name: 'Grace Hopper', phoneNumber: '+14155550123' } },
              { message: message({ id: uuid(7), conversationId: other, text: longText, createdAt: '2026-11-20T08:00:00.000Z' }), contact: alan },
            ],
            nextCursor: null,
            terms: ['parcel'],
          }
        : { items: [], nextCursor: null, terms: [] },
  }));
});
afterEach(() => {
  cleanup();
  restoreLayout();
  restoreScrolling();
  vi.unstubAllGlobals();
});

function renderLiveChat() {
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/live-chat', validateSearch: liveChatSearchSchema, component: LiveChatPage });
  const conv = createRoute({ getParentRoute: () => root, path: '/live-chat/$conversationId', validateSearch: liveChatSearchSchema, component: ConversationPage });
  const router = createRouter({ routeTree: root.addChildren([list, conv]), history: createMemoryHistory({ initialEntries: ['/live-chat?tab=open'] }) });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

it('finds messages across conversations and opens the chosen one at that message, paging back to it', async () => {
  const router = renderLiveChat();
  await userEvent.click(await screen.findByRole('button', { name: 'Search messages' }));
  const box = screen.getByRole('combobox', { name: 'Search messages' });
  await userEvent.type(box, 'parcel');
  const results = await screen.findByRole('listbox', { name: 'Messages found' });
  const options = await within(results).findAllByRole('option');
  expect(options).toHaveLength(2);
  expect(screen.getByTestId('message-search-status')).toHaveTextContent('2 messages');
  // Contact, snippet around the match with the word marked, time.
  expect(options[1]).toHaveTextContent('Alan Turing');
  expect(options[1]).toHaveTextContent(/^.*….*courier left the parcel/);
  expect(within(options[1]).getByText('parcel', { selector: 'mark' })).toBeInTheDocument();
  expect(options[1].querySelector('time')).toHaveAttribute('dateTime', '2026-11-20T08:00:00.000Z');
  expect(options[0]).toHaveAttribute('aria-selected', 'true');

  await userEvent.keyboard('{ArrowDown}');
  expect(options[1]).toHaveAttribute('aria-selected', 'true');
  expect(box).toHaveAttribute('aria-activedescendant', options[1].id);
  await userEvent.keyboard('{Enter}');

  await waitFor(() => expect(router.state.location.pathname).toBe(`/live-chat/${other}`));
  expect(screen.queryByRole('dialog', { name: 'Search messages' })).not.toBeInTheDocument();
  // The message is older than the 500 the detail holds: the conversation paged back for it and marks the word.
  await waitFor(() => expect(server.calls.some((c) => c.path.endsWith(`/conversation/${other}/messages`) && c.query.get('before') === uuid(1000))).toBe(true));
  const messages = await screen.findByRole('region', { name: 'Messages' });
  await waitFor(() => expect(within(messages).getAllByText('parcel', { selector: 'mark' }).length).toBeGreaterThan(0));
});

it('says when nothing matches, and cuts a long message to the part around the match', async () => {
  renderLiveChat();
  await userEvent.click(await screen.findByRole('button', { name: 'Search messages' }));
  await userEvent.type(screen.getByRole('combobox', { name: 'Search messages' }), 'invoice');
  await waitFor(() => expect(screen.getByTestId('message-search-status')).toHaveTextContent('No message matches “invoice”.'));
  expect(screen.queryAllByRole('option')).toHaveLength(0);

  const snippet = snippetAround(longText, ['parcel'], 80);
  expect(snippet.startsWith('…')).toBe(true);
  expect(snippet).toContain('parcel');
  expect(snippet.length).toBeLessThanOrEqual(82);
});
