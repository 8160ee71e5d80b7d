// @vitest-environment happy-dom
// The audience table: a list that failed to load can be asked for again, arrow keys move between rows, and the
// column headers sort the list on the server.
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Contact } from '../../../src/shared/schemas/entities';
import { ContactsTable } from '../../../src/renderer/src/features/audience/components/contacts-table';
import { contact, ids } from '../live-chat/fixtures';
import { type FakeServer, fakeServer, renderWithQuery, withLayout } from '../live-chat/harness';

let server: FakeServer;
let restoreLayout: () => void;
const people = [
  contact({ id: 'c1111111-1111-4111-8111-111111111111', name: 'Grace Hopper', phoneNumber: '+14155550121' }),
  contact({ id: 'c2222222-2222-4222-8222-222222222222', name: 'Alan Turing', phoneNumber: '+14155550122' }),
  contact({ id: 'c3333333-3333-4333-8333-333333333333', name: 'Ada Byron', phoneNumber: '+14155550123' }),
];

beforeEach(() => {
  restoreLayout = withLayout();
  server = fakeServer();
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.unstubAllGlobals();
});

function renderTable(onEdit: (c: Contact) => void = () => {}) {
  return renderWithQuery(<ContactsTable workspaceId={ids.workspace} search="" segmentId={null} attributes={[]} onEdit={onEdit} />);
}
const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('the contacts table', () => {
  it('says why the contacts could not be loaded, and Try again loads them', async () => {
    let fail = true;
    server.on('GET', /\/workspace\/[^/]+\/contacts$/, () =>
      fail ? { status: 403, body: { statusCode: 403, message: 'Not a member of this workspace', error: 'Forbidden' } } : { body: { items: people, nextCursor: null } },
    );
    renderTable();
    expect(await screen.findByRole('heading', { name: 'Contacts could not be loaded' })).toBeInTheDocument();
    expect(screen.getByText('403: Not a member of this workspace')).toBeInTheDocument();

    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('moves focus with the arrow keys and edits the focused row on Enter', async () => {
    server.on('GET', /\/workspace\/[^/]+\/contacts$/, { items: people, nextCursor: null });
    const onEdit = vi.fn();
    renderTable(onEdit);
    await screen.findByText('Grace Hopper');
    await act(async () => row('Grace Hopper').focus());
    await userEvent.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(row('Alan Turing')));
    await userEvent.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(row('Ada Byron')));
    // The last row stays put.
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard('{ArrowUp}');
    await waitFor(() => expect(document.activeElement).toBe(row('Alan Turing')));
    await userEvent.keyboard('{Enter}');
    expect(onEdit).toHaveBeenCalledWith(expect.objectContaining({ name: 'Alan Turing' }));
  });

  it('sorts by a column header: the request asks the server for the order, and aria-sort says it', async () => {
    // The fake server answers in the order asked for, so the rows show whether the order reached it.
    server.on('GET', /\/workspace\/[^/]+\/contacts$/, ({ query }: { query: URLSearchParams }) => {
      const byName = [...people].sort((a, b) => a.name!.localeCompare(b.name!));
      const items = query.get('sort') === 'name' ? (query.get('order') === 'desc' ? byName.reverse() : byName) : people;
      return { body: { items, nextCursor: null } };
    });
    renderTable();
    await screen.findByText('Grace Hopper');
    const header = (name: string) => screen.getByRole('columnheader', { name });
    const rowNames = () => [...document.querySelectorAll('tr[data-index]')].map((r) => people.find((p) => r.textContent?.includes(p.name!))?.name);
    // Today's order, newest first, is the "Added" column descending; the request carries no sort.
    expect(header('Added')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Name')).not.toHaveAttribute('aria-sort');
    expect(server.calls.at(-1)!.query.get('sort')).toBeNull();

    await userEvent.click(within(header('Name')).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(rowNames()).toEqual(['Ada Byron', 'Alan Turing', 'Grace Hopper']));
    expect(server.calls.at(-1)!.query.get('sort')).toBe('name');
    expect(server.calls.at(-1)!.query.get('order')).toBe('asc');
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Added')).not.toHaveAttribute('aria-sort');

    // Keyboard only: the header button keeps focus through the reload, and Enter reverses the order.
    expect(document.activeElement).toBe(within(header('Name')).getByRole('button'));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(rowNames()).toEqual(['Grace Hopper', 'Alan Turing', 'Ada Byron']));
    expect(server.calls.at(-1)!.query.get('order')).toBe('desc');
    expect(header('Name')).toHaveAttribute('aria-sort', 'descending');

    await userEvent.tab();
    expect(document.activeElement).toBe(within(header('Phone number')).getByRole('button'));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(header('Phone number')).toHaveAttribute('aria-sort', 'ascending'));
    expect(server.calls.at(-1)!.query.get('sort')).toBe('phoneNumber');
  });
});
