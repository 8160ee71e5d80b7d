// @vitest-environment happy-dom
/**
 * WhatsApp settings tell an admin what is true about going live: a callback Meta cannot reach (local, or plain
 * HTTP) is warned about, a server checking numbers against the local sandbox says so and marks its numbers
 * Sandbox, and a refused connection is shown in the server's words.
 */
import '@testing-library/jest-dom/vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswers, now, polyfillDom, renderApp } from '../support/app';

beforeAll(() => polyfillDom());

const account = {
  id: 'a1', phoneNumber: '+16505550100', wabaAccountId: '1', appId: '2', phoneNumberId: '3', token: '••••••••cret', workspaceId: 'w1',
  throughputPerSecond: 80, createdAt: now,
  health: { qualityRating: 'GREEN', messagingLimitTier: 'TIER_1K', throughputLevel: 'STANDARD', lastEvent: null, updatedAt: now },
};

function answersWith(setup: { callbackUrl: string; sandbox: boolean; graphUrl: string }) {
  const answers = defaultAnswers();
  answers['GET /workspace/w1/whatsapp'] = { status: 200, body: { items: [account], nextCursor: null } };
  answers['GET /workspace/w1/whatsapp-webhook'] = {
    status: 200,
    body: { callbackUrl: setup.callbackUrl, verifyToken: 'v', appSecretConfigured: true, lastVerifiedAt: null, graphApi: { url: setup.graphUrl, sandbox: setup.sandbox } },
  };
  return answers;
}

describe('going live in WhatsApp settings', () => {
  it('on the local stack: warns that Meta cannot reach the callback, and marks the sandbox and its numbers', async () => {
    await renderApp('/settings/whatsapp', { answers: answersWith({ callbackUrl: 'http://127.0.0.1:4000/webhooks/whatsapp', sandbox: true, graphUrl: 'http://127.0.0.1:4010/v23.0' }) });
    expect(await screen.findByText(/Meta cannot reach this callback URL\. 127\.0\.0\.1 is this machine only/)).toBeInTheDocument();
    expect(screen.getByText(/checks numbers against the local WhatsApp sandbox at/)).toBeInTheDocument();
    expect(screen.getByText('http://127.0.0.1:4010/v23.0')).toBeInTheDocument();
    const guide = screen.getAllByRole('link', { name: 'Connect a real WhatsApp number' });
    expect(guide.length).toBeGreaterThan(0);
    expect(guide[0]).toHaveAttribute('href', '/settings/whatsapp/going-live');
    const health = screen.getByLabelText('Health of +16505550100');
    expect(within(health).getByText('Sandbox')).toBeInTheDocument();
    expect(within(health).getByText('High quality')).toBeInTheDocument();
  });

  it('warns about a public address served over plain HTTP', async () => {
    await renderApp('/settings/whatsapp', { answers: answersWith({ callbackUrl: 'http://parley.acme.io/webhooks/whatsapp', sandbox: false, graphUrl: 'https://graph.facebook.com/v23.0' }) });
    expect(await screen.findByText(/Meta calls webhooks over HTTPS only; this address is plain HTTP\./)).toBeInTheDocument();
  });

  it('against Meta with a public HTTPS callback: no warning and no Sandbox badge', async () => {
    await renderApp('/settings/whatsapp', { answers: answersWith({ callbackUrl: 'https://parley.acme.io/webhooks/whatsapp', sandbox: false, graphUrl: 'https://graph.facebook.com/v23.0' }) });
    expect(await screen.findByText('https://parley.acme.io/webhooks/whatsapp')).toBeInTheDocument();
    expect(screen.queryByText(/Meta cannot reach/)).not.toBeInTheDocument();
    expect(screen.queryByText(/local WhatsApp sandbox/)).not.toBeInTheDocument();
    expect(within(screen.getByLabelText('Health of +16505550100')).queryByText('Sandbox')).not.toBeInTheDocument();
  });

  it('shows why a connection was refused, in the words of the server', async () => {
    const answers = answersWith({ callbackUrl: 'http://127.0.0.1:4000/webhooks/whatsapp', sandbox: true, graphUrl: 'http://127.0.0.1:4010/v23.0' });
    const why = 'The local WhatsApp sandbox at http://127.0.0.1:4010/v23.0, not Meta, checked these credentials and refused the token.';
    answers['POST /whatsapp'] = { status: 409, body: { statusCode: 409, message: why, error: 'Conflict' } };
    await renderApp('/settings/whatsapp', { answers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Connect number' }));
    await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '+16505550199');
    await user.type(screen.getByRole('textbox', { name: 'WhatsApp Business Account ID' }), '1099');
    await user.type(screen.getByRole('textbox', { name: 'Phone Number ID' }), '2099');
    await user.type(screen.getByRole('textbox', { name: 'App ID' }), '3099');
    await user.type(screen.getByLabelText('System user permanent token'), 'EAAreal-looking-token');
    await user.click(screen.getByRole('button', { name: 'Connect number' }));
    expect(await screen.findByText(`409: ${why}`)).toBeInTheDocument();
    expect(screen.queryByText('400: Bad Request Exception')).not.toBeInTheDocument();
  });

  it('the guide opens in the app from the number settings: the docs page itself, its steps and settings', async () => {
    await renderApp('/settings/whatsapp', { answers: answersWith({ callbackUrl: 'http://127.0.0.1:4000/webhooks/whatsapp', sandbox: true, graphUrl: 'http://127.0.0.1:4010/v23.0' }) });
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('link', { name: 'Connect a real WhatsApp number' }))[0]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Connect a real WhatsApp number' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'What you need from Meta' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: "The server's settings" })).toBeInTheDocument();
    // The settings table, with the variables an admin sets.
    const table = screen.getAllByRole('table')[0];
    for (const name of ['GRAPH_API_URL', 'PUBLIC_URL', 'WHATSAPP_VERIFY_TOKEN']) expect(within(table).getAllByText(name)[0]).toBeInTheDocument();
    // Links into the repository are named, not followed (the app does not carry the other docs pages).
    expect(screen.getAllByText('(docs/whatsapp-and-sandbox.md)').length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Back to WhatsApp accounts' })).toHaveAttribute('href', '/settings/whatsapp');
  });
});
