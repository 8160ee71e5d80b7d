// @vitest-environment happy-dom
/**
 * A contact deleted by another member (event contact.deleted) leaves the audience screen at once.
 * A file of its own: the app's event stream is opened once per workspace and module, before any other test's.
 */
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setIdTokenSource } from '../../../src/renderer/src/lib/id-token';
import { defaultAnswers, now, polyfillDom, renderApp } from '../support/app';
import { FakeEventSource, withLayout } from '../live-chat/harness';

beforeAll(() => {
  vi.stubGlobal('EventSource', FakeEventSource);
  polyfillDom();
});

const contact = (i: number, name: string) => ({
  id: `c${i}`, createdAt: now, workspaceId: 'w1', name, attributes: {}, channel: 'WhatsApp', phoneNumber: `+1415555${String(i).padStart(4, '0')}`,
  email: null, tags: [], country: 'US', city: null, meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null, optedOut: false,
});

describe('a contact deleted elsewhere (contact.deleted on the event stream)', () => {
  it('leaves the list and the total at once, without reloading the list', async () => {
    setIdTokenSource(async () => 'test-token');
    const restore = withLayout();
    try {
      const answers = defaultAnswers('agent');
      answers['GET /workspace/w1/contacts'] = { status: 200, body: { items: [contact(1, 'Ada Lovelace'), contact(2, 'Grace Hopper')], nextCursor: null } };
      const { calls } = await renderApp('/audience', { answers });
      expect(await screen.findByText('2 contacts')).toBeInTheDocument();
      expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
      await waitFor(() => expect(FakeEventSource.instances.length).toBeGreaterThan(0));
      const listed = () => calls.filter((c) => c.method === 'GET' && c.path === '/workspace/w1/contacts').length;
      const before = listed();
      act(() => FakeEventSource.emit('contact.deleted', { seq: 1, workspaceId: 'w1', type: 'contact.deleted', createdAt: now, payload: { contactId: 'c2' } }));
      expect(await screen.findByText('1 contact')).toBeInTheDocument();
      expect(screen.queryByText('Grace Hopper')).not.toBeInTheDocument();
      expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
      expect(listed()).toBe(before);
    } finally {
      restore();
    }
  });
});
