// The REST and event-stream client of the main process: plain fetch with the agent's ID token, answers parsed
// with the shared route table's schemas (a server that answers something else is an error, not a cache write).
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { z } from 'zod';
import { type RouteName, type Routes, buildPath, routes } from '../../shared/api/routes';

export type RouteAnswer<N extends RouteName> = Routes[N]['response'] extends z.ZodType ? z.output<Routes[N]['response']> : never;

export class ServerUnreachableError extends Error {
  constructor(cause: unknown) {
    super(`The server cannot be reached: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ServerUnreachableError';
  }
}

export class ServerAnswerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ServerAnswerError';
  }
}

/** The largest REST answer main reads (a page of 200 rows is far below; anything bigger is not Parley's). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The largest single event-stream message (an event with a conversation and its contact is a few KB). */
export const MAX_EVENT_BYTES = 1024 * 1024;

/** Reads a body up to `limit` bytes; a longer one is cancelled and refused. */
async function readLimited(response: Response, limit: number, what: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body?.cancel();
    throw new ServerAnswerError(502, `${what}: the answer is too large`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ServerAnswerError(502, `${what}: the answer is too large`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface ServerApi {
  get<N extends RouteName>(name: N, params?: Record<string, string>, query?: Record<string, string | number | undefined>): Promise<RouteAnswer<N>>;
  /** The workspace event stream, as SSE messages; ends when the server closes it. Throws when it cannot be opened. */
  events(workspaceId: string, lastEventId: number | undefined, signal: AbortSignal): AsyncIterable<EventSourceMessage>;
}

export interface ServerApiOptions {
  baseUrl: () => string | null;
  /** the current ID token (forceRefresh after a 401) */
  idToken: (forceRefresh: boolean) => Promise<string>;
  fetch?: typeof fetch;
  /** per REST request */
  timeoutMs?: number;
}

export function createServerApi({ baseUrl, idToken, fetch: fetchImpl = fetch, timeoutMs = 30_000 }: ServerApiOptions): ServerApi {
  const request = async (path: string, init: { signal?: AbortSignal; headers?: Record<string, string> }): Promise<Response> => {
    const base = baseUrl();
    if (!base) throw new ServerUnreachableError(new Error('no server address is set'));
    const send = async (force: boolean) => {
      const token = await idToken(force);
      try {
        return await fetchImpl(new URL(path, base), {
          signal: init.signal,
          headers: { ...init.headers, authorization: `Bearer ${token}` },
        });
      } catch (error) {
        throw new ServerUnreachableError(error);
      }
    };
    let response = await send(false);
    if (response.status === 401) {
      await response.body?.cancel();
      response = await send(true);
    }
    return response;
  };

  return {
    async get(name, params = {}, query = {}) {
      const route = routes[name];
      if (route.method !== 'GET') throw new Error(`${name} is not a GET route`);
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) search.set(k, String(v));
      const path = buildPath(route.path, params) + (search.size ? `?${search}` : '');
      const response = await request(path, { signal: AbortSignal.timeout(timeoutMs) });
      let body: unknown;
      try {
        body = JSON.parse(await readLimited(response, MAX_RESPONSE_BYTES, name));
      } catch (error) {
        if (error instanceof ServerAnswerError) throw error;
        if (response.ok) throw new ServerAnswerError(response.status, `${name}: the answer is not JSON`);
        throw new ServerUnreachableError(error);
      }
      if (!response.ok) {
        const message = typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : response.statusText;
        throw new ServerAnswerError(response.status, `${name}: ${response.status} ${message}`);
      }
      return (route.response as z.ZodType).parse(body) as RouteAnswer<typeof name>;
    },

    async *events(workspaceId, lastEventId, signal) {
      const path = `/workspace/${encodeURIComponent(workspaceId)}/events`;
      const response = await request(path, {
        signal,
        headers: { accept: 'text/event-stream', ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}) },
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new ServerAnswerError(response.status, `event stream: ${response.status}`);
      }
      const queue: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (message) => void queue.push(message) });
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      // bytes read since the last complete message: a server that never ends one cannot fill main's memory
      let pendingBytes = 0;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          pendingBytes += value.byteLength;
          if (pendingBytes > MAX_EVENT_BYTES) {
            await reader.cancel();
            throw new ServerAnswerError(502, 'event stream: a message is too large');
          }
          parser.feed(decoder.decode(value, { stream: true }));
          if (queue.length) pendingBytes = 0;
          while (queue.length) yield queue.shift()!;
        }
      } catch (error) {
        if (error instanceof ServerAnswerError) throw error;
        if (signal.aborted) return;
        throw new ServerUnreachableError(error);
      } finally {
        reader.releaseLock();
      }
    },
  };
}
