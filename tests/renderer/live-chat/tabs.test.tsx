// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConversationPage, LiveChatPage } from '../../../src/renderer/src/features/live-chat';
import { liveChatSearchSchema } from '../../../src/renderer/src/features/live-chat/utils/tabs';
import { landingHref } from '../../../src/renderer/src/lib/paths';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { FakeEventSource, type FakeServer, fakeServer, withLayout } from './harness';
import { contact, ids, listEntry, message } from './fixtures';

let server: FakeServer;
let restoreLayout: () => void;

function renderAt(url: string) {
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/live-chat', validateSearch: liveChatSearchSchema, component: LiveChatPage });
  const conv = createRoute({ getParentRoute: () => root, path: '/live-chat/$conversationId', component: ConversationPage });
  const history = createMemoryHistory({ initialEntries: [url] });
  const router = createRouter({ routeTree: root.addChildren([list, conv]), history });
  const queryClient = createQueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, history };
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
  server.on('GET', /\/conversations\/counts$/, { me: 2, assigned: 5, open: 12, closed: 1234, unread: { me: 0, assigned: 0, open: 0, closed: 0 } });
  server.on('GET', /\/workspace\/[^/]+\/conversations$/, ({ query }: { query: URLSearchParams }) => ({
    body: {
      items: [listEntry({ Contact: contact({ name: `Customer in ${query.get('tab')}` }), isActive: query.get('tab') !== 'closed' })],
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

const tabRequests = () => server.calls.filter((c) => /\/conversations$/.test(c.path)).map((c) => c.query.get('tab'));

describe('live chat tabs and the tab search param', () => {
  it('defaults to the closed tab when the URL has none', async () => {
    renderAt('/live-chat');
    expect(await screen.findByText('Customer in closed')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Closed/ })).toHaveAttribute('aria-selected', 'true');
    expect(tabRequests()).toEqual(['closed']);
  });

  it('an unknown tab falls back to closed', async () => {
    renderAt('/live-chat?tab=everything');
    expect(await screen.findByText('Customer in closed')).toBeInTheDocument();
  });

  it('shows each tab’s count', async () => {
    renderAt('/live-chat?tab=open');
    expect(await screen.findByRole('tab', { name: 'Open (12)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Me (2)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Assigned (5)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Closed (1234)' })).toHaveTextContent('1k');
  });

  it('choosing a tab puts it in the URL and loads that tab', async () => {
    const { router } = renderAt('/live-chat?tab=closed');
    await screen.findByText('Customer in closed');
    await userEvent.click(screen.getByRole('tab', { name: /Assigned/ }));
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'assigned' }));
    expect(await screen.findByText('Customer in assigned')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: /^Me/ }));
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'me' }));
    expect(await screen.findByText('Customer in me')).toBeInTheDocument();
    expect(tabRequests()).toEqual(['closed', 'assigned', 'me']);
  });

  it('a conversation link keeps the tab, and the list stays beside the conversation', async () => {
    server.on('GET', /\/conversation\/[^/]+$/, {
      ...listEntry(),
      ConversationEvent: [],
      Contact: contact(),
      Message: [message({ text: 'Where is my order?' })],
    });
    server.on('GET', /\/contact\/[^/]+\/conversations$/, { items: [], nextCursor: null });
    server.on('GET', /\/attributes$/, { items: [], nextCursor: null });
    server.on('GET', /\/whatsapp-templates$/, { items: [], nextCursor: null });
    const { router } = renderAt('/live-chat?tab=open');
    const link = await screen.findByRole('link', { name: /Customer in open/ });
    await act(async () => {
      await userEvent.click(link);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/live-chat/${ids.conversation}`));
    expect(router.state.location.search).toEqual({ tab: 'open' });
    expect(await screen.findByText('Where is my order?')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Open/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('link', { name: /Customer in open/ })).toHaveAttribute('aria-current', 'page');
  });
});

describe('the tab a sign-in lands on', () => {
  const counts = (c: Record<string, number>) =>
    server.on('GET', /\/conversations\/counts$/, { me: 0, assigned: 0, open: 0, closed: 40, ...c, unread: { me: 0, assigned: 0, open: 0, closed: 0 } });
  beforeEach(() => localStorage.clear());

  it('the first sign-in (nothing remembered) opens the first tab holding conversations: Me, then Assigned, then Open', async () => {
    counts({ me: 0, assigned: 5, open: 12 });
    const { router } = renderAt(landingHref());
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'assigned' }));
    expect(await screen.findByText('Customer in assigned')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Assigned/ })).toHaveAttribute('aria-selected', 'true');
    // The landing replaced the address: Back does not return to the empty Closed tab.
    expect(router.history.length).toBe(1);
  });

  it('with only open conversations it opens Open, and with none at all it stays on Closed', async () => {
    counts({ open: 3 });
    const first = renderAt(landingHref());
    await waitFor(() => expect(first.router.state.location.search).toEqual({ tab: 'open' }));
    cleanup();
    counts({});
    const second = renderAt(landingHref());
    expect(await screen.findByText('Customer in closed')).toBeInTheDocument();
    expect(second.router.state.location.search).toEqual({ tab: 'closed' });
  });

  it('a later sign-in opens the tab the member chose last, and a plain visit of ?tab=closed stays there', async () => {
    counts({ me: 2, open: 12 });
    const first = renderAt('/live-chat?tab=closed');
    await screen.findByText('Customer in closed');
    await userEvent.click(screen.getByRole('tab', { name: /Open/ }));
    await waitFor(() => expect(first.router.state.location.search).toEqual({ tab: 'open' }));
    cleanup();
    const again = renderAt(landingHref());
    await waitFor(() => expect(again.router.state.location.search).toEqual({ tab: 'open' }));
    expect(await screen.findByText('Customer in open')).toBeInTheDocument();
    cleanup();
    const visit = renderAt('/live-chat?tab=closed');
    expect(await screen.findByText('Customer in closed')).toBeInTheDocument();
    expect(visit.router.state.location.search).toEqual({ tab: 'closed' });
  });
});

describe('a campaign’s message in the conversation', () => {
  it('is marked with the campaign’s name, not as a bot’s', async () => {
    const campaignId = '88888888-8888-4888-8888-888888888888';
    server.on('GET', /\/conversation\/[^/]+$/, {
      ...listEntry(),
      ConversationEvent: [],
      Contact: contact(),
      Message: [
        message({ id: '10000000-0000-4000-8000-000000000001', type: 'template', creator: 'bot', status: 'read', text: 'Our winter sale starts today.', campaignId }),
        message({ id: '10000000-0000-4000-8000-000000000002', creator: 'bot', status: 'read', text: 'Thanks, a person will answer.' }),
      ],
    });
    server.on('GET', /\/campaign\/[^/]+$/, {
      id: campaignId, name: 'Winter sale', createdAt: '2026-01-01T00:00:00.000Z', type: 'oneTime', status: 'completed', resumeAt: null,
      rfInstance: { nodes: [], edges: [] }, memberId: ids.member, workspaceId: ids.workspace, scheduledAt: null, deployedAt: null, triggerKeyHint: null,
    });
    server.on('GET', /\/contact\/[^/]+\/conversations$/, { items: [], nextCursor: null });
    server.on('GET', /\/attributes$/, { items: [], nextCursor: null });
    server.on('GET', /\/whatsapp-templates$/, { items: [], nextCursor: null });
    renderAt(`/live-chat/${ids.conversation}?tab=open`);
    const sale = (await screen.findByText('Our winter sale starts today.')).closest('article')!;
    expect(await within(sale as HTMLElement).findByText('Campaign: Winter sale')).toBeInTheDocument();
    expect(within(sale as HTMLElement).queryByText('Bot')).toBeNull();
    const bot = screen.getByText('Thanks, a person will answer.').closest('article')!;
    expect(within(bot as HTMLElement).getByText('Bot')).toBeInTheDocument();
  });
});
