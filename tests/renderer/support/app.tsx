/**
 * Renders the real app (router, guards, screens) in happy-dom against a fake server: `fetch` is replaced by a
 * table of answers keyed by "METHOD /path", and the auth store is set directly (no identity service).
 * Use from test files that start with `// @vitest-environment happy-dom`.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { App } from '../../../src/renderer/src/app/App';
import { createAppRouter } from '../../../src/renderer/src/app/router';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';
import { type AuthUser, useAuthStore } from '../../../src/renderer/src/stores/auth-store';

export const now = '2026-11-23T09:00:00.000Z';
export const workspace = { id: 'w1', createdAt: now, name: 'Acme Support', memberIds: ['m1'] };

export function meFixture(role: 'admin' | 'agent' = 'admin') {
  return {
    id: 'm1',
    uid: 'u1',
    role,
    createdAt: now,
    currentWorkspaceId: 'w1',
    workspaceIds: ['w1'],
    Workspaces: [workspace],
  };
}

export const verifiedUser: AuthUser = {
  uid: 'u1',
  email: 'ada@acme.com',
  emailVerified: true,
  displayName: 'Ada',
  photoURL: null,
};

export type Answer = { status: number; body: unknown } | ((req: { method: string; path: string; body: unknown }) => { status: number; body: unknown });
export interface Recorded {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

const emptyPage = { status: 200, body: { items: [], nextCursor: null } };

/** Default answers of a signed-in admin's empty workspace. */
export function defaultAnswers(role: 'admin' | 'agent' = 'admin'): Record<string, Answer> {
  return {
    'GET /auth/me': { status: 200, body: meFixture(role) },
    'GET /workspace/w1': { status: 200, body: { ...workspace, Attribute: [], Member: [] } },
    'GET /workspace/w1/attributes': emptyPage,
    'GET /workspace/w1/whatsapp': emptyPage,
    'GET /workspace/w1/whatsapp-templates': emptyPage,
    'GET /workspace/w1/segments': emptyPage,
    'GET /workspace/w1/members': emptyPage,
    'GET /workspace/w1/invitees': emptyPage,
    'GET /workspace/w1/bots': emptyPage,
    'GET /workspace/w1/campaigns': emptyPage,
    'GET /workspace/w1/contacts': emptyPage,
    'GET /workspace/w1/conversations': emptyPage,
    'GET /workspace/w1/conversations/counts': { status: 200, body: { me: 0, assigned: 0, open: 0, closed: 0, unread: { me: 0, assigned: 0, open: 0, closed: 0 } } },
    'POST /workspace/w1/segments/preview': { status: 200, body: { count: 0, items: [] } },
  };
}

/** Replaces fetch with the given answers; unknown calls answer 404. Returns the calls made. */
export function fakeServer(answers: Record<string, Answer>): Recorded[] {
  const calls: Recorded[] = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : (init?.body ?? null);
    calls.push({ method, path: url.pathname + url.search, body, headers: (init?.headers ?? {}) as Record<string, string> });
    const answer = answers[`${method} ${url.pathname}`];
    const res = typeof answer === 'function' ? answer({ method, path: url.pathname, body }) : answer;
    const { status, body: out } = res ?? { status: 404, body: { statusCode: 404, message: `Cannot ${method} ${url.pathname}`, error: 'Not Found' } };
    return new Response(JSON.stringify(out), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

/** Renders the app at `path` with the given identity (null = signed out). */
export async function renderApp(path: string, opts: { user?: AuthUser | null; answers?: Record<string, Answer> } = {}) {
  const calls = fakeServer(opts.answers ?? defaultAnswers());
  useAuthStore.setState({ status: 'ready', user: opts.user === undefined ? verifiedUser : opts.user, member: null });
  const queryClient = createQueryClient();
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ queryClient, history });
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(<App router={router} queryClient={queryClient} />);
    await router.load();
  });
  return { ...view, router, history, queryClient, calls };
}

/** Browser APIs Radix and happy-dom disagree on. */
export function polyfillDom() {
  const proto = Element.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.releasePointerCapture ??= () => undefined;
  proto.scrollIntoView ??= () => undefined;
  // The live-chat screens open the workspace event stream; these tests do not exercise it.
  if (!('EventSource' in globalThis)) {
    (globalThis as Record<string, unknown>).EventSource = class {
      onopen: unknown = null;
      onerror: unknown = null;
      onmessage: unknown = null;
      readyState = 0;
      addEventListener() {}
      removeEventListener() {}
      close() {}
    };
  }
  if (!window.matchMedia) {
    window.matchMedia = (q: string) =>
      ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false }) as MediaQueryList;
  }
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useAuthStore.setState({ status: 'loading', user: null, member: null });
});
