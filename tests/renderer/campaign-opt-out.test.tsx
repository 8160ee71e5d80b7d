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
});
