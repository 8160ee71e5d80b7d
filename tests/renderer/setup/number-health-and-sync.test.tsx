// @vitest-environment happy-dom
/** Setup on screen: a number's health in WhatsApp settings, the templates sync button. */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswers, now, polyfillDom, renderApp } from '../support/app';

beforeAll(() => polyfillDom());

const account = {
  id: 'a1', phoneNumber: '+16505550100', wabaAccountId: '1', appId: '2', phoneNumberId: '3', token: '••••••••cret', workspaceId: 'w1',
  throughputPerSecond: 80, createdAt: now,
  health: { qualityRating: 'YELLOW', messagingLimitTier: 'TIER_10K', throughputLevel: 'STANDARD', lastEvent: null as string | null, updatedAt: now },
};

describe('number health in WhatsApp settings', () => {
  it('shows the quality rating, messaging limit and throughput, and reads them again from Meta on demand', async () => {
    const answers = defaultAnswers();
    let health = account.health;
    answers['GET /workspace/w1/whatsapp'] = () => ({ status: 200, body: { items: [{ ...account, health }], nextCursor: null } });
    answers['POST /whatsapp/a1/health'] = () => {
      health = { qualityRating: 'RED', messagingLimitTier: 'TIER_2K', throughputLevel: 'STANDARD', lastEvent: 'FLAGGED', updatedAt: now };
      return { status: 200, body: { ...account, health } };
    };
    const { calls } = await renderApp('/settings/whatsapp', { answers });
    const cell = await screen.findByLabelText('Health of +16505550100');
    expect(within(cell).getByText('Medium quality')).toBeInTheDocument();
    expect(within(cell).getByText('10K customers a day')).toBeInTheDocument();
    expect(within(cell).getByText('80 msg/s')).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh health of +16505550100' }));
    expect(await within(cell).findByText('Low quality')).toBeInTheDocument();
    expect(within(cell).getByText('2K customers a day')).toBeInTheDocument();
    expect(within(cell).getByText('Flagged by Meta')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/whatsapp/a1/health')).toHaveLength(1);
  });

  it('says when the health was never read, and offers agents no refresh', async () => {
    const answers = defaultAnswers('agent');
    answers['GET /workspace/w1/whatsapp'] = { status: 200, body: { items: [{ ...account, health: null }], nextCursor: null } };
    await renderApp('/settings/whatsapp', { answers });
    expect(await screen.findByText('Not read yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Refresh health/ })).not.toBeInTheDocument();
  });
});

describe('templates sync button', () => {
  const template = (name: string) => ({
    id: `t-${name}`, name, status: 'APPROVED', createdAt: now, language: 'en_US', memberId: 'm1', whatsappTemplateId: '1', mediaUrl: null,
    category: 'UTILITY', components: [{ type: 'BODY', text: `Body of ${name}` }], workspaceId: 'w1', whatsappAccountId: 'a1',
  });

  it('lists the templates a number already has at WhatsApp after a sync, and says how many were added', async () => {
    const answers = defaultAnswers();
    let items = [template('order_update')];
    answers['GET /workspace/w1/whatsapp'] = { status: 200, body: { items: [account], nextCursor: null } };
    answers['GET /workspace/w1/whatsapp-templates'] = () => ({ status: 200, body: { items, nextCursor: null } });
    answers['POST /workspace/w1/whatsapp-templates/sync'] = () => {
      items = [template('made_in_manager'), template('order_update')];
      return { status: 200, body: { updated: 0, imported: 1 } };
    };
    await renderApp('/templates', { answers });
    expect(await screen.findByText('order_update')).toBeInTheDocument();
    expect(screen.queryByText('made_in_manager')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sync from WhatsApp' }));
    expect(await screen.findByText('made_in_manager')).toBeInTheDocument();
    expect(await screen.findByText('Templates synced from WhatsApp: 1 added')).toBeInTheDocument();
  });

  it('is disabled until a number is connected', async () => {
    await renderApp('/templates');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sync from WhatsApp' })).toBeDisabled());
  });

  it('is not offered to agents', async () => {
    await renderApp('/templates', { answers: defaultAnswers('agent') });
    expect(await screen.findByText('No templates yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sync from WhatsApp' })).not.toBeInTheDocument();
  });
});
