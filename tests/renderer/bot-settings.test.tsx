// @vitest-environment happy-dom
// Bot settings: an admin sets the From address of the workspace's bot e-mails (or clears it back to the server's
// default); an address a mail relay could not take is refused with a clear message before any call; an agent reads
// it only.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, defaultAnswers, polyfillDom, renderApp } from './support/app';

beforeAll(() => polyfillDom());

function answers(role: 'admin' | 'agent' = 'admin', emailFrom: string | null = null) {
  const a: Record<string, Answer> = defaultAnswers(role);
  let current = { emailFrom };
  a['GET /workspace/w1/bot-settings'] = () => ({ status: 200, body: current });
  a['PATCH /workspace/w1/bot-settings'] = ({ body }) => {
    current = body as typeof current;
    return { status: 200, body: current };
  };
  return a;
}

describe('bot settings', () => {
  it('an admin sets the sender, then clears it back to the server default', async () => {
    const { calls } = await renderApp('/settings/bots', { answers: answers() });
    const from = await screen.findByLabelText(/From address of bot e-mails/);
    expect(from).toHaveValue('');
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('link', { name: 'Bots' })).toHaveAttribute('href', '/settings/bots');

    await userEvent.type(from, 'Bakery <bots@bakery.com>');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ emailFrom: 'Bakery <bots@bakery.com>' });
    expect(await screen.findByText('Bot settings saved')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText(/From address of bot e-mails/));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1].body).toEqual({ emailFrom: null });
  });

  it('refuses an address that is not one, sending nothing', async () => {
    const { calls } = await renderApp('/settings/bots', { answers: answers() });
    const from = await screen.findByLabelText(/From address of bot e-mails/);
    await userEvent.type(from, 'bots at bakery');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter an address such as bots@bakery.com or Bakery <bots@bakery.com>')).toBeInTheDocument();
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('an agent reads the sender but cannot change it', async () => {
    await renderApp('/settings/bots', { answers: answers('agent', 'bots@bakery.com') });
    expect(await screen.findByLabelText(/From address of bot e-mails/)).toBeDisabled();
    expect(screen.getByLabelText(/From address of bot e-mails/)).toHaveValue('bots@bakery.com');
    expect(screen.getByText('Only an admin can change these settings.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
