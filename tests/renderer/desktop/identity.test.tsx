// @vitest-environment happy-dom
/**
 * The renderer's one identity interface, through both implementations' seams: desktop (IPC to main, via the
 * real preload code) drives the real login screen and guards; web (the firebase SDK in the page) signs in
 * against the Auth emulator. The screens are the same in both.
 */
import '@testing-library/jest-dom/vitest';
import { act, configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from '@tanstack/react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../../src/renderer/src/app/App';
import { createAppRouter } from '../../../src/renderer/src/app/router';
import { chooseIdentity, initAuth, signOut } from '../../../src/renderer/src/lib/auth';
import { desktopIdentity } from '../../../src/renderer/src/lib/identity/desktop-identity';
import { webIdentity } from '../../../src/renderer/src/lib/identity/web-identity';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { type AuthUser, useAuthStore } from '../../../src/renderer/src/stores/auth-store';
import { defaultAnswers, fakeServer, polyfillDom, verifiedUser } from '../support/app';
import { signUp, uniqueEmail } from '../../support/identity';
import { IpcFailureAnswer, fakeMain } from './fake-main';

// The whole app renders here; on a busy machine the first screen can take a few seconds.
configure({ asyncUtilTimeout: 5000 });
beforeAll(polyfillDom);
afterEach(() => {
  delete (window as { desktop?: unknown }).desktop;
});

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

async function renderAt(path: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [path] }) });
  await act(async () => {
    render(<App router={router} queryClient={queryClient} />);
  });
  return { router, queryClient };
}

describe('desktop identity (IPC to the main process)', () => {
  it('signs in through main and calls the server with the ID token main hands out, asking for it once', async () => {
    const server = fakeServer(defaultAnswers());
    let signedIn: AuthUser | null = null;
    const main = fakeMain({
      'identity.currentUser': () => null,
      'identity.signIn': () => (signedIn = verifiedUser),
      'identity.getIdToken': () => ({ token: 'desktop-token-1', expiresAt: inAnHour() }),
    });
    initAuth(desktopIdentity(main.desktop));
    const { router } = await renderAt('/login');

    expect(await screen.findByRole('heading', { name: 'Sign in to Parley' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'ada@acme.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse 1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(router.state.location.href).toBe('/live-chat?tab=closed'));
    expect(signedIn).toEqual(verifiedUser);
    expect(main.callsOf('identity.signIn')).toEqual([{ email: 'ada@acme.com', password: 'correct horse 1' }]);
    // Every request of the signed-in screens carries main's token; the renderer asked for it only once.
    await waitFor(() => expect(server.some((c) => c.path.startsWith('/workspace/w1/conversations'))).toBe(true));
    expect(server.length).toBeGreaterThan(1);
    for (const call of server) expect(call.headers.authorization).toBe('Bearer desktop-token-1');
    expect(main.callsOf('identity.getIdToken')).toHaveLength(1);
  });

  it('shows main’s sign-in failure in words, and stays on the login screen', async () => {
    fakeServer(defaultAnswers());
    const main = fakeMain({
      'identity.currentUser': () => null,
      'identity.signIn': () => {
        throw new IpcFailureAnswer(401, 'Firebase: Error (auth/invalid-credential).', 'auth/invalid-credential');
      },
    });
    initAuth(desktopIdentity(main.desktop));
    const { router } = await renderAt('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@acme.com');
    await userEvent.type(screen.getByLabelText('Password'), 'not the password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('restores the session main kept (a restart) and follows main when the session ends', async () => {
    fakeServer(defaultAnswers());
    const main = fakeMain({
      'identity.currentUser': () => verifiedUser,
      'identity.getIdToken': () => ({ token: 'restored-token', expiresAt: inAnHour() }),
    });
    initAuth(desktopIdentity(main.desktop));
    const { router } = await renderAt('/templates');
    expect(await screen.findByRole('heading', { name: 'Templates' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/templates');

    // Signed out in main (another window, a revoked session): the guard sends the user to the login screen.
    act(() => main.emit('identity.changed', null));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(useAuthStore.getState().user).toBeNull();
  });

  it('says in the account menu when main keeps the session for this run only (no OS keychain)', async () => {
    fakeServer(defaultAnswers());
    const notice = 'No system keychain: you stay signed in until Parley quits';
    const main = fakeMain({
      'identity.currentUser': () => verifiedUser,
      'identity.getIdToken': () => ({ token: 'run-only-token', expiresAt: inAnHour() }),
      'app.info': () => ({ version: '1.0.0', platform: 'linux', electron: '41.0.0', sessionNotice: notice }),
    });
    window.desktop = main.desktop;
    initAuth(desktopIdentity(main.desktop));
    await renderAt('/templates');
    expect(await screen.findByRole('heading', { name: 'Templates' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /account menu/ }));
    expect(await screen.findByRole('note')).toHaveTextContent(notice);
  });

  it('shows no such notice when the session is kept in the OS keychain', async () => {
    fakeServer(defaultAnswers());
    const main = fakeMain({
      'identity.currentUser': () => verifiedUser,
      'identity.getIdToken': () => ({ token: 'kept-token', expiresAt: inAnHour() }),
      'app.info': () => ({ version: '1.0.0', platform: 'linux', electron: '41.0.0', sessionNotice: null }),
    });
    window.desktop = main.desktop;
    initAuth(desktopIdentity(main.desktop));
    await renderAt('/templates');
    expect(await screen.findByRole('heading', { name: 'Templates' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /account menu/ }));
    expect(await screen.findByRole('menuitem', { name: 'Profile' })).toBeInTheDocument();
    expect(main.callsOf('app.info').length).toBeGreaterThan(0);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('signs out through main and forgets the token it held', async () => {
    const server = fakeServer(defaultAnswers());
    let tokens = 0;
    const main = fakeMain({
      'identity.currentUser': () => verifiedUser,
      'identity.getIdToken': () => ({ token: `token-${++tokens}`, expiresAt: inAnHour() }),
      'identity.signOut': () => ({ ok: true }),
    });
    const identity = desktopIdentity(main.desktop);
    initAuth(identity);
    const { queryClient } = await renderAt('/templates');
    await screen.findByRole('heading', { name: 'Templates' });
    expect(server[0].headers.authorization).toBe('Bearer token-1');
    await act(() => signOut(queryClient));
    expect(main.callsOf('identity.signOut')).toHaveLength(1);
    expect(useAuthStore.getState().user).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    // The next session gets a fresh token, not the one held before.
    expect(await identity.getIdToken()).toBe('token-2');
  });

  it('asks main again when its token is about to expire, and answers null when signed out', async () => {
    let clock = Date.parse('2026-11-23T10:00:00Z');
    let n = 0;
    let signedIn = true;
    const main = fakeMain({
      'identity.getIdToken': () => {
        if (!signedIn) throw new IpcFailureAnswer(401, 'Sign in first');
        return { token: `t${++n}`, expiresAt: new Date(clock + 3600_000).toISOString() };
      },
    });
    const identity = desktopIdentity(main.desktop, () => clock);
    expect(await Promise.all([identity.getIdToken(), identity.getIdToken()])).toEqual(['t1', 't1']);
    clock += 30 * 60_000;
    expect(await identity.getIdToken()).toBe('t1');
    clock += 29.5 * 60_000; // 30 s before expiry
    expect(await identity.getIdToken()).toBe('t2');
    signedIn = false;
    clock += 3600_000;
    expect(await identity.getIdToken()).toBeNull();
  });
});

describe('web identity (firebase SDK in the page, Auth emulator)', () => {
  it('signs in, hands out the user’s ID token, and signs out', async () => {
    const email = uniqueEmail('web-identity');
    await signUp(email, 'correct horse 3');
    const identity = webIdentity();
    const seen: (AuthUser | null)[] = [];
    identity.start((u) => seen.push(u));

    const user = await identity.signIn(email, 'correct horse 3');
    expect(user.email).toBe(email);
    const token = await identity.getIdToken();
    const claims = JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString()) as { email: string };
    expect(claims.email).toBe(email);
    await waitFor(() => expect(seen.at(-1)?.email).toBe(email));

    await identity.signOut();
    await waitFor(() => expect(seen.at(-1)).toBeNull());
    expect(await identity.getIdToken()).toBeNull();
  });

  it('is the one chosen when the page has no window.desktop; the preload’s bridge picks the desktop one', () => {
    expect(chooseIdentity().kind).toBe('web');
    window.desktop = fakeMain({}).desktop;
    expect(chooseIdentity().kind).toBe('desktop');
  });
});
