import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiUpload, errorText, setIdTokenProvider } from '../../src/renderer/src/lib/api-client';

type Call = { url: string; init: RequestInit };

function answer(status: number, body: unknown): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body === undefined ? '' : JSON.stringify(body), { status });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setIdTokenProvider(async () => null);
});

const segment = { id: 's1', name: 'Gold', filters: [], createdAt: '2026-11-23T09:00:00.000Z', workspaceId: 'w1', memberId: 'm1' };

describe('api client (typed from the route table)', () => {
  it('fills path params and query, sends the ID token as Bearer and parses the answer', async () => {
    const calls = answer(200, { items: [segment], nextCursor: null });
    setIdTokenProvider(async () => 'id-token-1');
    const page = await api('listSegments', { params: { workspaceId: 'w 1' }, query: { limit: 20, cursor: undefined } });
    expect(page.items[0].name).toBe('Gold');
    expect(calls[0].url).toBe('http://127.0.0.1:4000/workspace/w%201/segments?limit=20');
    expect(calls[0].init.method).toBe('GET');
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer id-token-1');
  });

  it('sends JSON bodies with the route method', async () => {
    const calls = answer(201, segment);
    await api('createSegment', { body: { name: 'Gold', filters: [], workspaceId: 'w1' } });
    expect(calls[0].url).toBe('http://127.0.0.1:4000/segment');
    expect(calls[0].init.method).toBe('POST');
    expect(JSON.parse(calls[0].init.body as string)).toEqual({ name: 'Gold', filters: [], workspaceId: 'w1' });
  });

  it('throws ApiError with status, the message (a list joined) and the body', async () => {
    const body = { statusCode: 400, message: ['name: Required', 'filters: Required'], error: 'Bad Request' };
    answer(400, body);
    const err = await api('createSegment', { body: { name: '', filters: [], workspaceId: 'w1' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: 'name: Required, filters: Required', body });
  });

  it('refuses an answer that does not match the contract', async () => {
    answer(200, { items: [{ id: 1 }], nextCursor: null });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(api('listSegments', { params: { workspaceId: 'w1' } })).rejects.toMatchObject({ status: 200 });
  });

  it('says when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api('getMe')).rejects.toMatchObject({ status: 0, message: 'Could not reach the Parley server' });
  });

  it('uploads multipart with the field the route names', async () => {
    const calls = answer(201, { photoUrl: 'http://x/files/p.png' });
    const res = await apiUpload('uploadProfilePhoto', { file: new Blob(['png'], { type: 'image/png' }), fileName: 'me.png' });
    expect(res.photoUrl).toBe('http://x/files/p.png');
    const form = calls[0].init.body as FormData;
    expect(form.get('file')).toBeInstanceOf(Blob);
    expect((calls[0].init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });
});

describe('toast text of a failed mutation (spec section 8)', () => {
  it("is 'status: message' from the body", () => {
    expect(errorText(new ApiError(409, 'Attribute with name plan already exists', { statusCode: 409, message: 'Attribute with name plan already exists', error: 'Conflict' }))).toBe(
      '409: Attribute with name plan already exists',
    );
    expect(errorText(new ApiError(501, 'Not there yet', {}))).toBe('501: Not there yet');
  });

  it("replaces a 400's message with 'Bad Request Exception'", () => {
    expect(errorText(new ApiError(400, 'name: Required', { statusCode: 400, message: ['name: Required'], error: 'Bad Request' }))).toBe('400: Bad Request Exception');
  });
});

describe('api client types', () => {
  it('requires exactly what the route table requires', () => {
    // Never called: the compiler checks these lines (npm run typecheck).
    const typeChecks = () => {
      // @ts-expect-error listSegments needs params.workspaceId
      void api('listSegments');
      // @ts-expect-error createSegment needs a body
      void api('createSegment', { params: {} });
      // @ts-expect-error the body is typed from the route's zod schema
      void api('createSegment', { body: { name: 1, filters: [], workspaceId: 'w1' } });
      void api('getMe');
    };
    expect(typeof typeChecks).toBe('function');
  });
});
