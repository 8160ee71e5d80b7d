// @vitest-environment happy-dom
/** Start a conversation with a contact from the audience screen with an approved template. */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswers, now, polyfillDom, renderApp } from '../support/app';
import { withLayout } from '../live-chat/harness';

beforeAll(() => {
  polyfillDom();
  withLayout();
});

const ada = {
  id: 'c1', createdAt: now, workspaceId: 'w1', name: 'Ada Lovelace', attributes: {}, channel: 'WhatsApp', phoneNumber: '+14155550101',
  email: null, tags: [], country: 'US', city: null, meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null, optedOut: false,
};
const template = (id: string, status: string) => ({
  id, name: `tpl_${id}`, language: 'en_US', status, category: 'UTILITY', whatsappAccountId: 'a1', workspaceId: 'w1', createdAt: now, memberId: 'm1', whatsappTemplateId: '1', mediaUrl: null,
  components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}}' }],
});

describe('start a conversation', () => {
  it('sends an approved template with its variables to the contact', async () => {
    const answers = defaultAnswers('agent');
    answers['GET /workspace/w1/contacts'] = { status: 200, body: { items: [ada], nextCursor: null } };
    answers['GET /workspace/w1/whatsapp'] = { status: 200, body: { items: [{ id: 'a1', phoneNumber: '+14155550000', wabaAccountId: '1', appId: '2', phoneNumberId: '3', token: '••••cret', workspaceId: 'w1', throughputPerSecond: 80, createdAt: now, health: null }], nextCursor: null } };
    answers['GET /workspace/w1/whatsapp-templates'] = { status: 200, body: { items: [template('t1', 'APPROVED'), template('t2', 'PENDING')], nextCursor: null } };
    answers['POST /contact/c1/template-message'] = { status: 201, body: { id: 'm1', conversationId: 'conv1', type: 'template' } };
    const { calls } = await renderApp('/audience', { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    await user.click(await screen.findByRole('button', { name: 'Start conversation' }));
    const dialog = await screen.findByRole('dialog', { name: /Start a conversation/ });
    const picker = within(dialog).getByLabelText('Template');
    await waitFor(() => expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose an approved template', 'tpl_t1 (en_US)']));
    await user.selectOptions(picker, 't1');
    await user.type(within(dialog).getByLabelText('Variable {{1}}'), 'Ada');
    await user.type(within(dialog).getByLabelText('Variable {{2}}'), 'A100');
    await user.click(within(dialog).getByRole('button', { name: 'Send template' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === '/contact/c1/template-message')?.body).toEqual({ templateId: 't1', parameters: { body: ['Ada', 'A100'] } }));
  });
});
