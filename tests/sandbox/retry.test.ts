// Retry, timeout and safety behaviour of the Graph client against a scripted server on 127.0.0.1: it retries
// only what waiting can fix (5xx, 130429, 131057, no connection), never other 4xx, within a bounded count.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphApiError, createGraphClient, messages } from '../../src/server/whatsapp/graph-client';

const creds = { token: 'EAAsecret-token-value', phoneNumberId: '111', wabaAccountId: '222', appId: '333' };
const ok = { messaging_product: 'whatsapp', contacts: [{ input: '+14155550123', wa_id: '14155550123' }], messages: [{ id: 'wamid.OK' }] };
const graphError = (code: number, status: number) => ({ status, body: { error: { message: `(#${code}) x`, type: 'OAuthException', code, error_data: { details: `details ${code}` }, fbtrace_id: 'T' } } });

type Step = { status: number; body?: unknown; hang?: boolean; headers?: Record<string, string> };

/** Answers each request with the next scripted step (the last one repeats); records what it saw. */
class Script {
  readonly seen: { method: string; url: string; authorization?: string }[] = [];
  private server: Server;
  base = '';
  constructor(private steps: Step[]) {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        this.seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
        const step = this.steps[Math.min(this.seen.length - 1, this.steps.length - 1)];
        if (step.hang) return; // never answers: the client's timeout must end it
        res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers }).end(JSON.stringify(step.body ?? {}));
      });
    });
  }
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v23.0`;
    return this;
  }
  close() {
    this.server.closeAllConnections();
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

const servers: Script[] = [];
const script = async (steps: Step[]) => {
  const s = await new Script(steps).start();
  servers.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const fast = (baseUrl: string, extra: object = {}) => createGraphClient({ baseUrl, retries: 3, backoffBaseMs: 2, backoffMaxMs: 10, timeoutMs: 2000, ...extra });
const fail = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e) => e,
  );
  expect(err).toBeInstanceOf(GraphApiError);
  return err as GraphApiError;
};

describe('retries', () => {
  it('a 5xx then success is retried once and succeeds', async () => {
    const s = await script([graphError(1, 500), { status: 200, body: ok }]);
    const res = await fast(s.base).sendMessage(creds, '+14155550123', messages.text('hi'));
    expect(res.wamid).toBe('wamid.OK');
    expect(s.seen).toHaveLength(2);
  });

  it('a 400 is not retried', async () => {
    const s = await script([graphError(100, 400), { status: 200, body: ok }]);
    const err = await fail(fast(s.base).sendMessage(creds, '+14155550123', messages.text('hi')));
    expect([err.httpStatus, err.code, err.kind, err.details]).toEqual([400, 100, 'invalid_request', 'details 100']);
    expect(s.seen).toHaveLength(1);
  });

  it.each([
    [131047, 400],
    [190, 401],
    [132001, 400],
    [10, 403],
  ])('code %i (HTTP %i) is not retried', async (code, status) => {
    const s = await script([graphError(code, status), { status: 200, body: ok }]);
    await fail(fast(s.base).sendMessage(creds, '+14155550123', messages.text('hi')));
    expect(s.seen).toHaveLength(1);
  });

  it('130429 (throughput) and 131057 (maintenance) are retried although they come as 400', async () => {
    const s = await script([graphError(130429, 400), graphError(131057, 400), { status: 200, body: ok }]);
    await fast(s.base).sendMessage(creds, '+14155550123', messages.text('hi'));
    expect(s.seen).toHaveLength(3);
  });

  it('a lasting 5xx gives up after retries + 1 attempts, as unavailable', async () => {
    const s = await script([graphError(2, 503)]);
    const err = await fail(fast(s.base, { retries: 2 }).listFlows(creds));
    expect([err.kind, err.httpStatus]).toEqual(['unavailable', 503]);
    expect(err.userMessage).toBe('WhatsApp is temporarily unavailable; try again later.');
    expect(s.seen).toHaveLength(3);
  });

  it('a 5xx without a Graph body is still an error with a status, and retried', async () => {
    const s = await script([{ status: 502, body: 'Bad gateway' }, { status: 200, body: { data: [] } }]);
    expect(await fast(s.base).listFlows(creds)).toEqual([]);
    expect(s.seen).toHaveLength(2);
  });

  it('HTTP 429 (app call limit, code 4) is a 4xx: not retried', async () => {
    const s = await script([graphError(4, 429), { status: 200, body: { data: [] } }]);
    const err = await fail(fast(s.base).listFlows(creds));
    expect(err.kind).toBe('rate_limited');
    expect(s.seen).toHaveLength(1);
  });

  it('waits between attempts, growing, and honours Retry-After within the cap', async () => {
    const s = await script([graphError(1, 500), graphError(1, 500), { status: 200, body: { data: [] } }]);
    const t0 = Date.now();
    await createGraphClient({ baseUrl: s.base, retries: 3, backoffBaseMs: 40, backoffMaxMs: 300 }).listFlows(creds);
    // Backoff is 50-100 % of 40 ms, then of 80 ms: at least 60 ms in all.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);

    const hinted = await script([{ ...graphError(2, 503), headers: { 'retry-after': '5' } }, { status: 200, body: { data: [] } }]);
    const t1 = Date.now();
    await createGraphClient({ baseUrl: hinted.base, retries: 3, backoffBaseMs: 1, backoffMaxMs: 300 }).listFlows(creds);
    // Retry-After asks 5 s; the cap keeps it to 300 ms.
    expect(Date.now() - t1).toBeGreaterThanOrEqual(290);
    expect(Date.now() - t1).toBeLessThan(2000);
  });
});

describe('network failures and timeouts', () => {
  it('no connection: reads and sends are retried (the request never left), then unavailable', async () => {
    const s = await script([{ status: 200 }]);
    const deadBase = s.base;
    await s.close();
    servers.splice(servers.indexOf(s), 1);
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const c = fast(deadBase, { fetch: counting, retries: 2 });
    const err = await fail(c.getPhoneNumber(creds));
    expect([err.kind, err.network, err.httpStatus]).toEqual(['unavailable', true, 0]);
    expect(calls).toBe(3);
    calls = 0;
    await fail(c.sendMessage(creds, '+14155550123', messages.text('hi')));
    expect(calls).toBe(3);
  });

  it('a timeout ends the call; a send is not repeated (it may have arrived), a read is', async () => {
    const s = await script([{ status: 200, hang: true }]);
    const c = fast(s.base, { timeoutMs: 150, retries: 2 });
    const err = await fail(c.sendMessage(creds, '+14155550123', messages.text('hi')));
    expect([err.kind, err.timeout]).toEqual(['unavailable', true]);
    expect(err.userMessage).toBe('WhatsApp did not answer in time; try again later.');
    expect(s.seen).toHaveLength(1);
    await fail(c.getPhoneNumber(creds));
    expect(s.seen).toHaveLength(4);
  });
});

describe('safety', () => {
  it('sends the token as a bearer header only, never logs it, and does not follow paging to another host', async () => {
    const elsewhere = await script([{ status: 200, body: { data: [{ id: 'stolen' }] } }]);
    const s = await script([graphError(1, 500), { status: 200, body: { data: [{ id: 't1', name: 'a' }], paging: { next: `${elsewhere.base}/222/message_templates?after=x` } } }]);
    const logs: unknown[] = [];
    const c = fast(s.base, { log: { warn: (obj: object, msg: string) => logs.push({ obj, msg }) } });
    const list = await c.listTemplates(creds);
    expect(list.map((t) => t.id)).toEqual(['t1']);
    expect(elsewhere.seen).toHaveLength(0);
    expect(s.seen.every((r) => r.authorization === `Bearer ${creds.token}` && !r.url.includes(creds.token))).toBe(true);
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs)).not.toContain(creds.token);
  });

  it('does not send the token to a media URL that is neither https nor on the Graph host', async () => {
    const elsewhere = await script([{ status: 200, body: 'bytes' }]);
    const s = await script([{ status: 200, body: { id: 'm1', url: `${elsewhere.base}/file`, mime_type: 'image/png', sha256: 'x', file_size: 5 } }]);
    // Methods work detached from the client object too.
    const { downloadMedia } = fast(s.base);
    const err = await fail(downloadMedia(creds, 'm1'));
    expect(err.message).toContain('neither https nor on the Graph host');
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('follows paging.next on the same host until it ends', async () => {
    const s = await script([]);
    // Three pages: the server script is rebuilt once the base URL is known.
    (s as unknown as { steps: Step[] }).steps = [
      { status: 200, body: { data: [{ id: '1' }], paging: { next: `${s.base}/222/message_templates?after=a` } } },
      { status: 200, body: { data: [{ id: '2' }], paging: { next: `${s.base}/222/message_templates?after=b` } } },
      { status: 200, body: { data: [{ id: '3' }], paging: {} } },
    ];
    expect((await fast(s.base).listTemplates(creds)).map((t) => t.id)).toEqual(['1', '2', '3']);
    expect(s.seen.map((r) => new URL(r.url, 'http://x').searchParams.get('after'))).toEqual([null, 'a', 'b']);
  });
});
