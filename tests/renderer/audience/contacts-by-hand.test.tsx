// @vitest-environment happy-dom
/** Contacts by hand on the audience screen: add a contact by hand, delete one after a confirmation, the exact total. */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswers, now, polyfillDom, renderApp } from '../support/app';
import { withLayout } from '../live-chat/harness';

beforeAll(() => polyfillDom());

const contact = (i: number, name = `Person ${i}`) => ({
  id: `c${i}`, createdAt: now, workspaceId: 'w1', name, attributes: {}, channel: 'WhatsApp', phoneNumber: `+1415555${String(i).padStart(4, '0')}`,
  email: null, tags: [], country: 'US', city: null, meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null, optedOut: false,
});

describe('contacts by hand', () => {
  it('adds a contact from a validated form', async () => {
    const answers = defaultAnswers('agent');
    let items = [contact(1, 'Ada Lovelace')];
    answers['GET /workspace/w1/contacts'] = () => ({ status: 200, body: { items, nextCursor: null } });
    answers['POST /contact'] = ({ body }) => {
      const added = { ...contact(2, (body as { name: string }).name), phoneNumber: '+14155550133' };
      items = [added, ...items];
      return { status: 201, body: added };
    };
    const { calls } = await renderApp('/audience', { answers });
    expect(await screen.findByText('1 contact')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add contact' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await within(dialog).findByText('Please enter a phone number')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Phone number'), '(415) 555-0133');
    await user.type(within(dialog).getByLabelText('Name'), 'Grace Hopper');
    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Grace Hopper added')).toBeInTheDocument();
    expect(await screen.findByText('2 contacts')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/contact')!.body).toEqual({ phoneNumber: '(415) 555-0133', name: 'Grace Hopper', email: '', workspaceId: 'w1' });
  });

  it('shows the exact total from the server when more pages are left to load', async () => {
    const answers = defaultAnswers('agent');
    answers['GET /workspace/w1/contacts'] = { status: 200, body: { items: Array.from({ length: 100 }, (_, i) => contact(i)), nextCursor: 'more' } };
    answers['GET /workspace/w1/contacts/count'] = { status: 200, body: { count: 12345 } };
    await renderApp('/audience', { answers });
    expect(await screen.findByText('12,345 contacts')).toBeInTheDocument();
    expect(screen.queryByText(/100\+/)).not.toBeInTheDocument();
  });
});

describe('deleting a contact', () => {
  it('asks for a confirmation naming what goes, then deletes (admins)', async () => {
    const restore = withLayout();
    try {
      const answers = defaultAnswers('admin');
      let items = [contact(1, 'Ada Lovelace')];
      answers['GET /workspace/w1/contacts'] = () => ({ status: 200, body: { items, nextCursor: null } });
      answers['DELETE /contact/c1'] = () => {
        items = [];
        return { status: 200, body: { success: true } };
      };
      const { calls } = await renderApp('/audience', { answers });
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
      await user.click(await screen.findByRole('button', { name: 'Delete contact' }));
      const confirm = await screen.findByRole('alertdialog');
      expect(within(confirm).getByText('Delete Ada Lovelace?')).toBeInTheDocument();
      expect(within(confirm).getByText(/their conversations and messages are deleted/)).toBeInTheDocument();
      await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('No contacts yet')).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'DELETE' && c.path === '/contact/c1')).toHaveLength(1);
    } finally {
      restore();
    }
  });
});
