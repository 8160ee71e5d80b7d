// @vitest-environment happy-dom
// The segment builder lists the WhatsApp user id and username among the contact fields, and saves a filter on them.
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SegmentsPage } from '../../src/renderer/src/features/settings/components/segments-page';
import { useAuthStore } from '../../src/renderer/src/stores/auth-store';
import { ids } from './live-chat/fixtures';
import { type FakeServer, type Handler, fakeServer, renderWithQuery, withLayout } from './live-chat/harness';

let server: FakeServer;
let restoreLayout: () => void;
const saved = {
  id: '77777777-7777-4777-8777-777777777777', name: 'Has username', workspaceId: ids.workspace, createdAt: '2026-01-01T00:00:00.000Z',
  filters: [{ column: 'username', operator: 'IS_NOT_EMPTY', value: '', conjuction: 'AND' }], memberId: ids.member,
};

beforeEach(() => {
  restoreLayout = withLayout();
  useAuthStore.setState({
    status: 'ready',
    user: { uid: 'u1', email: 'ada@acme.com', emailVerified: true, displayName: 'Ada', photoURL: null },
    member: { id: ids.member, uid: 'u1', role: 'admin', createdAt: '2026-01-01T00:00:00.000Z', currentWorkspaceId: ids.workspace, workspaceIds: [ids.workspace], Workspaces: [] },
  });
  server = fakeServer();
  server.on('GET', /\/workspace\/[^/]+\/segments$/, { items: [saved], nextCursor: null });
  server.on('GET', /\/workspace\/[^/]+\/attributes$/, { items: [], nextCursor: null });
  server.on('POST', /\/segments\/preview$/, { count: 1, items: [] });
  server.on('POST', /^\/segment$/, ((req: Parameters<Handler>[0]) => ({ status: 201, body: { ...saved, ...(req.body as object) } })) as Handler);
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.unstubAllGlobals();
});

describe('segment builder', () => {
  it('names username filters in the list, and saves a filter on the WhatsApp username', async () => {
    renderWithQuery(<SegmentsPage />);
    expect(await screen.findByText(/WhatsApp username is not empty/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New segment' }));
    await userEvent.type(screen.getByLabelText('Segment name'), 'Maria and friends');
    await userEvent.click(screen.getByRole('combobox', { name: 'Filter 1 column' }));
    expect(await screen.findByRole('option', { name: 'WhatsApp user ID' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('option', { name: 'WhatsApp username' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Filter 1 operator' }));
    await userEvent.click(await screen.findByRole('option', { name: 'starts with' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Filter 1 value' }), '@mar');
    await userEvent.click(screen.getByRole('button', { name: 'Save segment' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'POST' && c.path === '/segment')).toBe(true));
    const body = server.calls.find((c) => c.method === 'POST' && c.path === '/segment')!.body as { filters: unknown[] };
    expect(body.filters).toEqual([expect.objectContaining({ column: 'username', operator: 'STARTS_WITH', value: '@mar' })]);
  });
});
