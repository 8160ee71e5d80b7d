/**
 * How graph-client.ts talks to the Graph API: one call with its timeout, the mapping of failures to
 * GraphApiError, and the retry policy (graph-client.ts's header says which failures are retried, and why a call
 * that may have reached Meta is not); and the paging of list answers.
 */
import { GraphApiError, graphErrorFromResponse, isRetryable } from './graph-errors';
import type { Metrics } from '../metrics/metrics';

export interface GraphClientLogger {
  warn(obj: object, msg: string): void;
}

export interface GraphClientOptions {
  /** e.g. https://graph.facebook.com/v23.0 (GRAPH_API_URL). */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Further attempts after the first for retryable failures (default 3). */
  retries?: number;
  /** Per attempt (default 20 s; uploads get uploadTimeoutMs, default 120 s). */
  timeoutMs?: number;
  uploadTimeoutMs?: number;
  /** First backoff step and its cap (defaults 500 ms and 8 s); each retry doubles it, then jitter picks 50-100 %. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  log?: GraphClientLogger;
  /** Counts every failed attempt by Meta's error code. */
  metrics?: Pick<Metrics, 'graphErrors'>;
}

export interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to baseUrl, or an absolute URL (paging.next, media URLs). */
  path: string;
  query?: Record<string, string | undefined>;
  json?: unknown;
  form?: FormData;
  raw?: { data: Uint8Array; headers: Record<string, string> };
  /** Resumable uploads authenticate with `OAuth <token>`. */
  scheme?: 'Bearer' | 'OAuth';
  /** May the request be repeated if it might have reached Meta already? */
  idempotent: boolean;
  /** false: one attempt only (the caller has its own recovery). */
  retry?: boolean;
  /** false: a 130429 (throughput) answer is not retried here; the caller's pacer backs the number off. */
  retryThrottled?: boolean;
  timeoutMs?: number;
  binary?: boolean;
  signal?: AbortSignal;
}

/** Connection errors where the request certainly did not reach the server. */
const notConnected = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

function causeCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The options with their defaults filled in. */
interface Settings {
  base: string;
  baseOrigin: string;
  doFetch: typeof fetch;
  retries: number;
  timeoutMs: number;
  uploadTimeoutMs: number;
  backoffBase: number;
  backoffMax: number;
  log?: GraphClientLogger;
  metrics?: Pick<Metrics, 'graphErrors'>;
}

function settingsOf(opts: GraphClientOptions): Settings {
  const base = opts.baseUrl.replace(/\/+$/, '');
  return {
    base,
    baseOrigin: new URL(base).origin,
    doFetch: opts.fetch ?? fetch,
    retries: Math.max(0, opts.retries ?? 3),
    timeoutMs: opts.timeoutMs ?? 20_000,
    uploadTimeoutMs: opts.uploadTimeoutMs ?? 120_000,
    backoffBase: opts.backoffBaseMs ?? 500,
    backoffMax: opts.backoffMaxMs ?? 8_000,
    log: opts.log,
    metrics: opts.metrics,
  };
}

/** The label of a failed attempt: Meta's code, else `network` or the HTTP status. */
const errorCodeLabel = (e: GraphApiError) => (e.code !== undefined ? String(e.code) : e.network ? 'network' : `http_${e.httpStatus}`);

function backoff(s: Settings, attempt: number, retryAfter: string | null): number {
  const exp = Math.min(s.backoffMax, s.backoffBase * 2 ** attempt);
  const jittered = exp / 2 + Math.random() * (exp / 2);
  const hinted = retryAfter && /^\d+$/.test(retryAfter) ? Math.min(Number(retryAfter) * 1000, s.backoffMax) : 0;
  return Math.max(jittered, hinted);
}

function urlFor(s: Settings, call: Call): URL {
  const url = /^https?:\/\//.test(call.path) ? new URL(call.path) : new URL(`${s.base}/${call.path.replace(/^\/+/, '')}`);
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

function bodyOf(call: Call, headers: Record<string, string>): BodyInit | undefined {
  if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    return JSON.stringify(call.json);
  }
  if (call.form) return call.form;
  if (call.raw) {
    Object.assign(headers, call.raw.headers);
    // Node's fetch sends any Uint8Array; the DOM typings only admit ArrayBuffer-backed views.
    return call.raw.data as Uint8Array<ArrayBuffer>;
  }
  return undefined;
}

/** One attempt: the answer and its body (JSON when it parses, else the text; bytes for a binary download). */
async function attempt(s: Settings, token: string, call: Call): Promise<{ res: Response; body: unknown }> {
  const url = urlFor(s, call);
  const headers: Record<string, string> = { authorization: `${call.scheme ?? 'Bearer'} ${token}` };
  const body = bodyOf(call, headers);
  const signals = [AbortSignal.timeout(call.timeoutMs ?? s.timeoutMs), ...(call.signal ? [call.signal] : [])];
  const res = await s.doFetch(url, { method: call.method, headers, body, signal: AbortSignal.any(signals) });
  if (call.binary && res.ok) return { res, body: Buffer.from(await res.arrayBuffer()) };
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { res, body: parsed };
}

/** The error of an attempt that got no answer; thrown at once when the request may have reached Meta. */
function networkFailure(call: Call, where: string, err: unknown): GraphApiError {
  const timedOut = (err as Error).name === 'TimeoutError';
  const code = causeCode(err);
  const message = timedOut ? `${where} timed out` : `${where} failed: ${code ?? (err as Error).message}`;
  // The request may have reached Meta: repeating a non-idempotent call could send twice.
  if (!call.idempotent && (timedOut || !code || !notConnected.has(code))) {
    throw new GraphApiError({ httpStatus: 0, network: true, timeout: timedOut, message, mayHaveArrived: true });
  }
  return new GraphApiError({ httpStatus: 0, network: true, timeout: timedOut, message });
}

/** networkFailure, counting the failure it throws at once too (the request may have reached Meta). */
function countedNetworkFailure(s: Settings, call: Call, where: string, err: unknown): GraphApiError {
  try {
    return networkFailure(call, where, err);
  } catch (mayHaveArrived) {
    s.metrics?.graphErrors.inc({ code: 'network' });
    throw mayHaveArrived;
  }
}

/** One Graph call with timeout, error mapping and the retry policy. */
async function request<T>(s: Settings, token: string, call: Call): Promise<T> {
  const where = `${call.method} ${urlFor(s, call).pathname}`;
  const maxAttempts = call.retry === false ? 1 : s.retries + 1;
  for (let n = 0; ; n++) {
    let error: GraphApiError;
    let retryAfter: string | null = null;
    try {
      const { res, body } = await attempt(s, token, call);
      if (res.ok) return body as T;
      error = graphErrorFromResponse(res.status, body);
      retryAfter = res.headers.get('retry-after');
    } catch (err) {
      if (call.signal?.aborted) throw err;
      error = countedNetworkFailure(s, call, where, err);
    }
    s.metrics?.graphErrors.inc({ code: errorCodeLabel(error) });
    if (error.code === 130429 && call.retryThrottled === false) throw error;
    const retryable = isRetryable(error.httpStatus, error.code, error.network);
    if (!retryable || n + 1 >= maxAttempts) throw error;
    const delay = backoff(s, n, retryAfter);
    s.log?.warn({ where, attempt: n + 1, httpStatus: error.httpStatus, code: error.code, retryInMs: Math.round(delay) }, 'Graph API call failed; retrying');
    await sleep(delay);
  }
}

/** Follows paging.next on the same origin only, so the token never goes to a host Graph did not name as itself. */
async function collect<T>(s: Settings, token: string, first: Call): Promise<T[]> {
  const items: T[] = [];
  let call: Call | undefined = first;
  for (let pages = 0; call && pages < 1000; pages++) {
    const page: { data?: T[]; paging?: { next?: string } } = await request(s, token, call);
    items.push(...(page.data ?? []));
    const next = page.paging?.next;
    call = next && new URL(next).origin === s.baseOrigin ? { method: 'GET', path: next, idempotent: true } : undefined;
  }
  return items;
}

export interface GraphTransport {
  request<T>(token: string, call: Call): Promise<T>;
  collect<T>(token: string, first: Call): Promise<T[]>;
  /** The Graph host's origin: a media URL elsewhere must be https to get the token. */
  baseOrigin: string;
  retries: number;
  uploadTimeoutMs: number;
  backoff(attempt: number, retryAfter: string | null): number;
  log?: GraphClientLogger;
}

export function createGraphTransport(opts: GraphClientOptions): GraphTransport {
  const s = settingsOf(opts);
  return {
    request: (token, call) => request(s, token, call),
    collect: (token, first) => collect(s, token, first),
    baseOrigin: s.baseOrigin,
    retries: s.retries,
    uploadTimeoutMs: s.uploadTimeoutMs,
    backoff: (n, retryAfter) => backoff(s, n, retryAfter),
    log: s.log,
  };
}
