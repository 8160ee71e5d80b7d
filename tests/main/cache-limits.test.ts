// The cache's size and age caps (src/main/cache/location.ts) and main's limits on what a server may send
// (src/main/cache/server-api.ts): a hostile or broken server cannot fill main's memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CACHE_MAX_AGE_DAYS, removeStaleCaches, workspaceCacheExpired } from '../../src/main/cache/location';
import { createServerApi, MAX_EVENT_BYTES, MAX_RESPONSE_BYTES, ServerAnswerError } from '../../src/main/cache/server-api';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cache-limits-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const day = 86_400_000;

describe('cache caps', () => {
  it(`removes a user's cache not used for ${CACHE_MAX_AGE_DAYS} days at start-up, keeps a recent one`, () => {
    const old = path.join(dir, 'cache', 'old-user');
    const recent = path.join(dir, 'cache', 'recent-user');
    for (const d of [old, recent]) {
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, 'user.sqlite'), 'x');
    }
    const longAgo = new Date(Date.now() - (CACHE_MAX_AGE_DAYS + 1) * day);
    for (const p of [path.join(old, 'user.sqlite'), old]) fs.utimesSync(p, longAgo, longAgo);
    expect(removeStaleCaches(dir)).toEqual(['old-user']);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
  });

  it('drops a workspace file that is too large or was not synced for too long', () => {
    const file = path.join(dir, 'workspace-w.sqlite');
    fs.writeFileSync(file, Buffer.alloc(2048));
    expect(workspaceCacheExpired(file, new Date().toISOString())).toBe(false);
    expect(workspaceCacheExpired(file, new Date().toISOString(), Date.now(), 1024)).toBe(true);
    expect(workspaceCacheExpired(file, new Date(Date.now() - (CACHE_MAX_AGE_DAYS + 1) * day).toISOString())).toBe(true);
    expect(workspaceCacheExpired(path.join(dir, 'none.sqlite'), null)).toBe(false);
  });
});

describe('answer size limits in main', () => {
  const api = (body: () => ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    createServerApi({
      baseUrl: () => 'http://127.0.0.1:9',
      idToken: async () => 'token',
      fetch: async () => new Response(body(), { status: 200, headers: { 'content-type': 'application/json', ...headers } }),
    });
  /** a body that streams `chunk` forever (until cancelled), counting what was pulled */
  const endless = (chunk: string, pulled: { bytes: number }) => () =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const bytes = new TextEncoder().encode(chunk);
        pulled.bytes += bytes.byteLength;
        controller.enqueue(bytes);
      },
    });

  it('refuses a REST answer larger than the limit without reading all of it', async () => {
    const pulled = { bytes: 0 };
    await expect(api(endless('['.padEnd(64 * 1024, ' '), pulled)).get('getMe')).rejects.toBeInstanceOf(ServerAnswerError);
    expect(pulled.bytes).toBeLessThan(MAX_RESPONSE_BYTES + 256 * 1024);
  });

  it('ends an event stream whose message never ends', async () => {
    const pulled = { bytes: 0 };
    const stream = api(endless('data: '.padEnd(64 * 1024, 'x'), pulled)).events('w', undefined, new AbortController().signal);
    await expect(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    ).rejects.toThrow('too large');
    expect(pulled.bytes).toBeLessThan(MAX_EVENT_BYTES + 256 * 1024);
  });
});
