// @vitest-environment happy-dom
// Campaign settings: an admin sets the workspace's own opt-out keywords, the opt-out
// confirmation and the time zone send windows fall back to; bad input is refused with a clear message before any
// call; an agent sees them read-only.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, defaultAnswers, polyfillDom, renderApp } from './support/app';

const initial = { optOutKeywords: ['ARRET'], timeZone: 'UTC', optOutConfirmation: '', skipUsMarketing: true };

beforeAll(() => polyfillDom());

function answers(role: 'admin' | 'agent' = 'admin') {
  const a: Record<string, Answer> = defaultAnswers(role);
  let current = initial;
  a['GET /workspace/w1/campaign-settings'] = () => ({ status: 200, body: current });
  a['PATCH /workspace/w1/campaign-settings'] = ({ body }) => {
    const b = body as typeof initial;
    current = { ...current, ...b, optOutKeywords: b.optOutKeywords.map((k) => k.toUpperCase()) };
    return { status: 200, body: current };
  };
  return a;
}

describe('campaign settings', () => {
  it('an admin saves keywords, the confirmation and the time zone; the page shows what the server kept', async () => {
    const { calls } = await renderApp('/settings/campaigns', { answers: answers() });
    const keywords = await screen.findByLabelText(/Opt-out keywords/);
    expect(keywords).toHaveValue('ARRET');
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('link', { name: 'Campaigns' })).toHaveAttribute('href', '/settings/campaigns');

    await userEvent.clear(keywords);
    await userEvent.type(keywords, 'arret, baja');
    await userEvent.type(screen.getByLabelText(/Opt-out confirmation/), 'You are unsubscribed. Reply START to come back.');
    const zone = screen.getByLabelText('Workspace time zone');
    await userEvent.clear(zone);
    await userEvent.type(zone, 'Europe/Paris');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      optOutKeywords: ['arret', 'baja'],
      timeZone: 'Europe/Paris',
      optOutConfirmation: 'You are unsubscribed. Reply START to come back.',
      skipUsMarketing: true,
    });
    await waitFor(() => expect(screen.getByLabelText(/Opt-out keywords/)).toHaveValue('ARRET, BAJA'));
    expect(await screen.findByText('Campaign settings saved')).toBeInTheDocument();
  });

  it('US marketing is skipped by default; an admin turns the skip off and the page shows it kept', async () => {
    const { calls } = await renderApp('/settings/campaigns', { answers: answers() });
    const skip = await screen.findByRole('switch', { name: 'Skip marketing templates to US numbers' });
    expect(skip).toBeChecked();
    expect(skip).toHaveAccessibleDescription(/WhatsApp refuses every marketing template to a US number \(error 131049\)/);
    await userEvent.click(skip);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({ skipUsMarketing: false });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Skip marketing templates to US numbers' })).not.toBeChecked());
  });

  it('refuses an unknown time zone and too long a keyword with clear messages, sending nothing', async () => {
    const { calls } = await renderApp('/settings/campaigns', { answers: answers() });
    const zone = await screen.findByLabelText('Workspace time zone');
    await userEvent.clear(zone);
    await userEvent.type(zone, 'Mars/Olympus');
    const keywords = screen.getByLabelText(/Opt-out keywords/);
    await userEvent.clear(keywords);
    await userEvent.type(keywords, `ok, ${'x'.repeat(70)}`);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Enter a time zone such as Europe/Paris')).toBeInTheDocument();
    expect(screen.getByText(/A keyword has at most 64 characters/)).toBeInTheDocument();
    expect(zone).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('an agent reads the settings but cannot change them', async () => {
    await renderApp('/settings/campaigns', { answers: answers('agent') });
    expect(await screen.findByLabelText(/Opt-out keywords/)).toBeDisabled();
    expect(screen.getByLabelText('Workspace time zone')).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Skip marketing templates to US numbers' })).toBeDisabled();
    expect(screen.getByText('Only an admin can change these settings.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
