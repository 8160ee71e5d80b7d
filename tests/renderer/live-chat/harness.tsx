/**
 * Test harness: a fresh QueryClient (the app's, with its mutation toasts), a fake server answering `fetch` by
 * method and path, and a stand-in EventSource the tests can push workspace events through.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';
import { createQueryClient } from '../../../src/renderer/src/lib/query-client';

// Two cores shared with the rest of the team: the first render of a screen can take a while to import.
configure({ asyncUtilTimeout: 5000 });

export type Handler = (req: { method: string; path: string; query: URLSearchParams; body: unknown }) => { status?: number; body: unknown } | undefined;

export interface FakeServer {
  calls: { method: string; path: string; query: URLSearchParams; body: unknown }[];
  on: (method: string, pattern: RegExp, respond: Handler | unknown) => void;
}

export function fakeServer(): FakeServer {
  const routes: { method: string; pattern: RegExp; respond: Handler }[] = [];
  const calls: FakeServer['calls'] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const req = { method, path: url.pathname, query: url.searchParams, body };
    calls.push(req);
    for (const r of [...routes].reverse()) {
      if (r.method === method && r.pattern.test(url.pathname)) {
        const out = r.respond(req);
        if (out) return new Response(JSON.stringify(out.body), { status: out.status ?? 200, headers: { 'content-type': 'application/json' } });
      }
    }
    return new Response(JSON.stringify({ statusCode: 404, message: `no fake for ${method} ${url.pathname}`, error: 'Not Found' }), { status: 404 });
  });
  return {
    calls,
    on(method, pattern, respond) {
      routes.push({ method, pattern, respond: typeof respond === 'function' ? (respond as Handler) : () => ({ body: respond }) });
    },
  };
}

/** Replaces EventSource; `emit` delivers a named SSE event to every open stream. */
export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readonly CLOSED = 2;
  readyState = 1;
  url: string;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  private listeners = new Map<string, ((e: MessageEvent) => void)[]>();
  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
    queueMicrotask(() => this.onopen?.());
  }
  addEventListener(type: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.readyState = 2;
    FakeEventSource.instances = FakeEventSource.instances.filter((s) => s !== this);
  }
  /** The server refused or dropped the stream for good: EventSource closes and reports an error. */
  fail() {
    this.close();
    this.onerror?.();
  }
  static emit(type: string, data: unknown, lastEventId?: string) {
    for (const s of FakeEventSource.instances) for (const fn of s.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
  }
}

export function renderWithQuery(ui: ReactElement) {
  const queryClient = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return { queryClient, ...render(ui, { wrapper }) };
}

/**
 * happy-dom does no layout: every element measures 0x0, so a virtualised list would show no rows. Give
 * elements a size (the viewport of a laptop screen) so the virtualiser renders its window.
 */
export function withLayout(height = 800, width = 1200) {
  const targets = [
    [HTMLElement.prototype, 'offsetHeight', height],
    [HTMLElement.prototype, 'offsetWidth', width],
    [HTMLElement.prototype, 'clientHeight', height],
    [HTMLElement.prototype, 'clientWidth', width],
  ] as const;
  const saved = targets.map(([proto, k]) => [proto, k, Object.getOwnPropertyDescriptor(proto, k)] as const);
  for (const [proto, k, v] of targets) Object.defineProperty(proto, k, { configurable: true, get: () => v });
  return () => {
    for (const [proto, k, d] of saved) {
      if (d) Object.defineProperty(proto, k, d);
      else delete (proto as unknown as Record<string, unknown>)[k];
    }
  };
}
