// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/renderer/src/app/App';
import { createAppRouter } from '../../src/renderer/src/app/router';
import { createQueryClient } from '../../src/renderer/src/lib/query-client';
import { useAuthStore } from '../../src/renderer/src/stores/auth-store';
import { render } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { defaultAnswers, polyfillDom, renderApp, verifiedUser } from './support/app';

beforeAll(polyfillDom);

const at = (router: { state: { location: { href: string } } }) => router.state.location.href;

describe('route guards (spec section 2)', () => {
  it("shows 'Verifying user...' while the identity service has not answered", async () => {
    useAuthStore.setState({ status: 'loading', user: null, member: null });
    const queryClient = createQueryClient();
    const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: ['/templates'] }) });
    render(<App router={router} queryClient={queryClient} />);
    expect(screen.getByText('Verifying user...')).toBeInTheDocument();
    act(() => useAuthStore.setState({ status: 'ready', user: null }));
    await waitFor(() => expect(at(router)).toBe('/login?redirect=%2Ftemplates'));
  });

  it('sends a signed-out visitor of a signed-in route to /login with the location as redirect', async () => {
    const { router } = await renderApp('/settings/members?x=1', { user: null });
    await waitFor(() => expect(at(router)).toBe('/login?redirect=%2Fsettings%2Fmembers%3Fx%3D1'));
    expect(await screen.findByRole('heading', { name: 'Sign in to Parley' })).toBeInTheDocument();
  });

  it('treats an unverified e-mail as signed out', async () => {
    const { router } = await renderApp('/templates', { user: { ...verifiedUser, emailVerified: false } });
    await waitFor(() => expect(at(router)).toBe('/login?redirect=%2Ftemplates'));
  });

  it('lets an unverified user see the guest screens (verify e-mail)', async () => {
    const { router } = await renderApp('/verify-email-address', { user: { ...verifiedUser, emailVerified: false } });
    expect(at(router)).toBe('/verify-email-address');
    expect(await screen.findByText('ada@acme.com')).toBeInTheDocument();
  });

  it('sends a signed-in, verified user from a guest-only route to /live-chat?tab=closed', async () => {
    const { router } = await renderApp('/login');
    await waitFor(() => expect(at(router)).toBe('/live-chat?tab=closed'));
  });

  it('follows the redirect param of a guest-only route when signed in', async () => {
    const { router } = await renderApp('/login?redirect=%2Fsettings%2Fattributes');
    await waitFor(() => expect(at(router)).toBe('/settings/attributes'));
    expect(await screen.findByRole('heading', { name: 'Attributes' })).toBeInTheDocument();
  });

  it('never follows a redirect param to another site', async () => {
    const { router } = await renderApp('/login?redirect=%2F%2Fevil.example%2Fx');
    await waitFor(() => expect(at(router)).toBe('/live-chat?tab=closed'));
  });

  it('defaults and validates the live-chat tab', async () => {
    const { router } = await renderApp('/live-chat?tab=bogus');
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'closed' }));
    await act(() => router.navigate({ to: '/live-chat', search: { tab: 'me' } }));
    expect(router.state.location.search).toEqual({ tab: 'me' });
  });

  it("shows 'Not Found' for unknown routes", async () => {
    await renderApp('/no/such/screen');
    expect(await screen.findByRole('heading', { name: 'Not Found' })).toBeInTheDocument();
  });

  it("shows 'Something went wrong!' with a Show Error / Hide Error toggle when a route load fails", async () => {
    const answers = defaultAnswers();
    answers['GET /workspace/w1/bots'] = { status: 500, body: { statusCode: 500, message: 'Internal Server Error', error: 'Internal Server Error' } };
    await renderApp('/automation', { answers });
    expect(await screen.findByText('Something went wrong!', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText('Internal Server Error')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show Error' }));
    expect(screen.getByText('Internal Server Error')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Hide Error' }));
    expect(screen.queryByText('Internal Server Error')).not.toBeInTheDocument();
  });

  it('loads the signed-in member before a screen and keys the workspace calls by it', async () => {
    const { calls } = await renderApp('/settings/segments');
    expect(await screen.findByText('No segments yet')).toBeInTheDocument();
    const paths = calls.map((c) => `${c.method} ${c.path.split('?')[0]}`);
    expect(paths[0]).toBe('GET /auth/me');
    expect(paths).toContain('GET /workspace/w1/segments');
  });
});
