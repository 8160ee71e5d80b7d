// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConversationPage, LiveChatPage } from '../../../src/renderer/src/features/live-chat';
import { liveChatSearchSchema } from '../../../src/renderer/src/features/live-chat/utils/tabs';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { setIdTokenSource } from '../../../src/renderer/src/lib/id-token';
import { useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { contact, ids, listEntry, message } from './fixtures';
import { FakeEventSource, type FakeServer, fakeServer, withLayout } from './harness';

let server: FakeServer;
let restoreLayout: () => void;
let seq = 0;
const emit = (type: string, payload: unknown) =>
  act(() => FakeEventSource.emit(type, { seq: ++seq, workspaceId: ids.workspace, type, createdAt: new Date().toISOString(), payload }));

const otherId = '88888888-8888-4888-8888-888888888888';
const first = message({ text: 'Where is my order?', createdAt: new Date(Date.now() - 3600_000).toISOString() });

beforeEach(() => {
  restoreLayout = withLayout();
  vi.stubGlobal('EventSource', FakeEventSource);
  setIdTokenSource(async () => 'test-token');
  useAuthStore.setState({
    status: 'ready',
    user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
    member: { id: ids.member, uid: 'u1', role: 'agent', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
  });
  server = fakeServer();
  server.on('GET', /\/conversations\/counts$/, { me: 0, assigned: 0, open: 2, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } });
  server.on('POST', /^\/conversation\/[^/]+\/read$/, { success: true });
  server.on('GET', /\/workspace\/[^/]+\/conversations$/, {
    items: [
      listEntry({ lastMessage: first, lastMessageAt: first.createdAt }),
      listEntry({ id: otherId, contactId: otherId, Contact: contact({ id: otherId, name: 'Alan Turing', phoneNumber: '+447700900123' }), lastMessage: null, lastMessageAt: new Date(Date.now() - 7200_000).toISOString() }),
    ],
    nextCursor: null,
  });
  server.on('GET', /\/workspace\/[^/]+$/, { id: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z', name: 'Acme', memberIds: [ids.member], Attribute: [], Member: [] });
  server.on('GET', /\/bots$/, { items: [], nextCursor: null });
  server.on('GET', /\/conversation\/[^/]+$/, { ...listEntry(), ConversationEvent: [], Contact: contact(), Message: [first] });
  server.on('GET', /\/contact\/[^/]+\/conversations$/, { items: [], nextCursor: null });
  server.on('GET', /\/attributes$/, { items: [], nextCursor: null });
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.unstubAllGlobals();
});

function renderAt(url: string) {
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/live-chat', validateSearch: liveChatSearchSchema, component: LiveChatPage });
  const conv = createRoute({ getParentRoute: () => root, path: '/live-chat/$conversationId', component: ConversationPage });
  const router = createRouter({ routeTree: root.addChildren([list, conv]), history: createMemoryHistory({ initialEntries: [url] }) });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const listNames = () => within(screen.getByRole('navigation', { name: 'Conversations' })).getAllByRole('link').map((l) => l.getAttribute('data-conversation-id'));

describe('live updates from the workspace event stream', () => {
  it('one stream per workspace, authenticated by ?token=', async () => {
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    await screen.findByText('Where is my order?', { selector: 'p' });
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    expect(FakeEventSource.instances[0].url).toMatch(new RegExp(`/workspace/${ids.workspace}/events\\?token=test-token$`));
  });

  it('a customer’s new message appears in the open conversation and lifts it in the list, without a refetch', async () => {
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    await screen.findByText('Where is my order?', { selector: 'p' });
    // Neither the list nor the conversation is fetched again (the tab counts are: their unread figure moved).
    const refetches = () => server.calls.filter((c) => c.method === 'GET' && !c.path.endsWith('/counts')).length;
    const readMarks = () => server.calls.filter((c) => c.method === 'POST' && c.path === `/conversation/${ids.conversation}/read`).length;
    const fetchesBefore = refetches();
    await waitFor(() => expect(readMarks()).toBe(1));
    const incoming = message({ text: 'Hello? Anyone there?', createdAt: new Date().toISOString() });
    emit('message.created', { message: incoming });
    expect(await screen.findByText('Hello? Anyone there?', { selector: 'p' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Conversations' })).getByText('Hello? Anyone there?')).toBeInTheDocument();
    expect(refetches()).toBe(fetchesBefore);
    // The conversation is on screen: the new customer message counts as read at once.
    await waitFor(() => expect(readMarks()).toBe(2));
  });

  it('a new message in another conversation moves that one to the top; a status update turns the ticks blue', async () => {
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    await screen.findByText('Where is my order?', { selector: 'p' });
    expect(listNames()).toEqual([ids.conversation, otherId]);
    emit('message.created', { message: message({ conversationId: otherId, text: 'Do you deliver?', createdAt: new Date().toISOString() }) });
    await waitFor(() => expect(listNames()).toEqual([otherId, ids.conversation]));

    const mine = message({ creator: 'agent', memberId: ids.member, status: 'sent', text: 'On its way', createdAt: new Date().toISOString() });
    emit('message.created', { message: mine });
    const bubble = (await screen.findByText('On its way', { selector: 'p' })).closest('article')!;
    expect(within(bubble).getByRole('img', { name: 'Sent' })).toBeInTheDocument();
    emit('message.status', { message: { ...mine, status: 'read' } });
    await waitFor(() => expect(within(bubble).getByRole('img', { name: 'Read' })).toBeInTheDocument());
  });

  it('a conversation closed elsewhere leaves the open tab', async () => {
    renderAt('/live-chat?tab=open');
    await waitFor(() => expect(listNames()).toEqual([ids.conversation, otherId]));
    const { Contact: _c, lastMessage: _l, ...conversation } = listEntry({ id: otherId, contactId: otherId, isActive: false });
    emit('conversation.updated', { conversation });
    await waitFor(() => expect(listNames()).toEqual([ids.conversation]));
  });

  it('a contact deleted elsewhere takes its conversation out of the list, without reloading it', async () => {
    renderAt('/live-chat?tab=open');
    await waitFor(() => expect(listNames()).toEqual([ids.conversation, otherId]));
    const lists = () => server.calls.filter((c) => c.method === 'GET' && /\/conversations$/.test(c.path)).length;
    const before = lists();
    emit('contact.deleted', { contactId: otherId });
    await waitFor(() => expect(listNames()).toEqual([ids.conversation]));
    expect(screen.queryByText('Alan Turing')).not.toBeInTheDocument();
    expect(lists()).toBe(before);
    // The tab counts are asked again (they included it).
    await waitFor(() => expect(server.calls.filter((c) => c.path.endsWith('/counts')).length).toBeGreaterThan(1));
  });

  it('reloads the list, the counts and the open conversation when the stream says events were pruned (event: reset)', async () => {
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    await screen.findByText('Where is my order?', { selector: 'p' });
    await waitFor(() => expect(listNames()).toEqual([ids.conversation, otherId]));
    // Meanwhile, on the server: a message the stream can no longer replay, and the other conversation closed.
    const missed = message({ text: 'Sent while you were away', createdAt: new Date().toISOString() });
    server.on('GET', /\/conversation\/[^/]+$/, { ...listEntry(), ConversationEvent: [], Contact: contact(), Message: [first, missed] });
    server.on('GET', /\/workspace\/[^/]+\/conversations$/, { items: [listEntry({ lastMessage: missed, lastMessageAt: missed.createdAt })], nextCursor: null });
    const before = server.calls.length;
    act(() => FakeEventSource.emit('reset', { reason: 'pruned', seq: 4000 }));
    expect(await screen.findByText('Sent while you were away', { selector: 'p' })).toBeInTheDocument();
    await waitFor(() => expect(listNames()).toEqual([ids.conversation]));
    const refetched = server.calls.slice(before).map((c) => c.path);
    expect(refetched.some((p) => p.endsWith('/conversations/counts'))).toBe(true);
  });

  it('resumes after the reset point when the stream reconnects', async () => {
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.emit('reset', { reason: 'pruned', seq: 4000 }));
    const stream = FakeEventSource.instances[0];
    act(() => stream.fail());
    await waitFor(() => expect(FakeEventSource.instances.at(-1)?.url).toMatch(/lastEventId=4000/), { timeout: 5000 });
  });

  it('while the agent is scrolled down, a new conversation waits behind a pill instead of pushing the rows down', async () => {
    renderAt('/live-chat?tab=open');
    await waitFor(() => expect(listNames()).toEqual([ids.conversation, otherId]));
    const scroller = screen.getByTestId('conversation-scroller');
    scroller.scrollTop = 200;
    fireEvent.scroll(scroller);
    const newId = '99999999-9999-4999-8999-999999999999';
    emit('conversation.opened', {
      conversation: listEntry({ id: newId, contactId: newId, Contact: contact({ id: newId, name: 'Katherine Johnson' }), lastMessageAt: new Date().toISOString() }),
    });
    const pill = await screen.findByRole('button', { name: '1 new conversation' });
    expect(listNames()).toEqual([ids.conversation, otherId]);
    await act(async () => pill.click());
    await waitFor(() => expect(listNames()).toEqual([newId, ids.conversation, otherId]));
    expect(screen.queryByRole('button', { name: /new conversation/ })).toBeNull();
  });

  it('at the top of the list, a new conversation shows at once', async () => {
    renderAt('/live-chat?tab=open');
    await waitFor(() => expect(listNames()).toEqual([ids.conversation, otherId]));
    const newId = '99999999-9999-4999-8999-999999999999';
    emit('conversation.opened', {
      conversation: listEntry({ id: newId, contactId: newId, Contact: contact({ id: newId, name: 'Katherine Johnson' }), lastMessageAt: new Date().toISOString() }),
    });
    await waitFor(() => expect(listNames()).toEqual([newId, ids.conversation, otherId]));
    expect(screen.queryByRole('button', { name: /new conversation/ })).toBeNull();
  });
});
