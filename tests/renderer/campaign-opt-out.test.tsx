// @vitest-environment happy-dom
// Opt-out: an opted-out contact is shown as such in the contacts table (filterable) and in the
// conversation's contact sidebar, and an agent can opt it back in (or out) from either.
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContactsTable } from '../../src/renderer/src/features/audience/components/contacts-table';
import { ContactSidebar } from '../../src/renderer/src/features/live-chat/components/contact-sidebar';
import { contact, ids } from './live-chat/fixtures';
import { type FakeServer, type Handler, fakeServer, renderWithQuery, withLayout } from './live-chat/harness';
import { useAuthStore } from '../../src/renderer/src/stores/auth-store';

type Req = Parameters<Handler>[0];

let server: FakeServer;
let restoreLayout: () => void;
const grace = contact({ id: 'c1111111-1111-4111-8111-111111111111', name: 'Grace Hopper', phoneNumber: '+14155550121', optedOut: true });
const alan = contact({ id: 'c2222222-2222-4222-8222-222222222222', name: 'Alan Turing', phoneNumber: '+14155550122', optedOut: false });

beforeEach(() => {
  restoreLayout = withLayout();
  server = fakeServer();
  server.on('GET', /\/workspace\/[^/]+\/attributes$/, { items: [], nextCursor: null });
  server.on('GET', /\/contact\/[^/]+\/conversations$/, { items: [], nextCursor: null });
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.unstubAllGlobals();
});

describe('opt-out in the audience and live chat', () => {
  it('the contacts table shows who opted out, filters by it, and opts a contact back in', async () => {
    server.on('GET', /\/workspace\/[^/]+\/contacts$/, (req: Req) => {
      const f = req.query.get('optedOut');
      const items = [grace, alan].filter((c) => f === null || String(c.optedOut) === f);
      return { body: { items, nextCursor: null } };
    });
    server.on('PATCH', /\/contact\/c111/, (req: Req) => ({ body: { ...grace, ...(req.body as object) } }));
    const { rerender } = renderWithQuery(
      <ContactsTable workspaceId={ids.workspace} search="" segmentId={null} attributes={[]} onEdit={() => {}} />,
    );
    const graceRow = (await screen.findByText('Grace Hopper')).closest('tr')!;
    expect(within(graceRow).getByText('Opted out')).toBeInTheDocument();
    expect(within(screen.getByText('Alan Turing').closest('tr')!).getByText('Subscribed')).toBeInTheDocument();

    rerender(<ContactsTable workspaceId={ids.workspace} search="" segmentId={null} optedOut attributes={[]} onEdit={() => {}} />);
    await waitFor(() => expect(server.calls.at(-1)!.query.get('optedOut')).toBe('true'));
    await screen.findByText('Grace Hopper');
    expect(screen.queryByText('Alan Turing')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Opt Grace Hopper back in to campaigns' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(server.calls.find((c) => c.method === 'PATCH')!.body).toEqual({ optedOut: false });
  });

  it('the contact sidebar says the contact opted out and lets an agent reverse it', async () => {
    let current = grace;
    server.on('PATCH', /\/contact\//, (req: Req) => {
      current = { ...current, ...(req.body as object) };
      return { body: current };
    });
    const { rerender } = renderWithQuery(<ContactSidebar contact={grace} conversationId={ids.conversation} workspaceId={ids.workspace} />);
    expect(screen.getByText('Opted out of campaigns')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Opt back in' }));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ optedOut: false }));
    rerender(<ContactSidebar contact={current} conversationId={ids.conversation} workspaceId={ids.workspace} />);
    expect(screen.getByText('Receives campaigns')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Opt out' })).toBeInTheDocument();
  });

  it('the contact sidebar says how the contact opted out: keyword, the template button, or by hand and by whom', async () => {
    useAuthStore.setState({
      status: 'ready',
      user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
      member: { id: ids.member, uid: 'u1', role: 'admin', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
    });
    const profile = {
      id: ids.member, uid: 'u1', role: 'admin', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace],
      email: 'ada@acme.com', emailVerified: true, displayName: 'Ada Admin', photoURL: null, phone: null, metadata: { creationTime: null, lastSignInTime: null },
    };
    server.on('GET', /\/workspace\/[^/]+$/, { id: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z', name: 'Acme', memberIds: [ids.member], Attribute: [], Member: [profile] });
    const at = '2026-11-20T10:00:00.000Z';
    const stopped = { value: 'stopped' as const, source: 'user_preferences' as const, at };
    const { rerender } = renderWithQuery(
      <ContactSidebar contact={{ ...grace, optOut: { source: 'keyword', at, memberId: null }, marketingConsent: stopped }} conversationId={ids.conversation} workspaceId={ids.workspace} />,
    );
    expect(screen.getByText(/Sent an opt-out keyword/)).toBeInTheDocument();
    // Beside Meta's marketing consent, which has its own source.
    expect(screen.getByText('Stopped marketing messages in WhatsApp')).toBeInTheDocument();
    rerender(<ContactSidebar contact={{ ...grace, optOut: { source: 'template_button', at, memberId: null } }} conversationId={ids.conversation} workspaceId={ids.workspace} />);
    expect(screen.getByText(/Tapped the template's opt-out button/)).toBeInTheDocument();
    rerender(<ContactSidebar contact={{ ...grace, optOut: { source: 'member', at, memberId: ids.member } }} conversationId={ids.conversation} workspaceId={ids.workspace} />);
    expect(await screen.findByText(/Opted out by hand by Ada Admin/)).toBeInTheDocument();
    // An opt-out recorded before sources were kept shows the badge alone.
    rerender(<ContactSidebar contact={{ ...grace, optOut: null }} conversationId={ids.conversation} workspaceId={ids.workspace} />);
    expect(screen.getByText('Opted out of campaigns')).toBeInTheDocument();
    expect(screen.queryByText(/Opted out by hand|opt-out keyword|opt-out button/)).not.toBeInTheDocument();
  });
});
