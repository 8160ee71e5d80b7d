/**
 * Parley's client for the WhatsApp Cloud API (Graph API at GRAPH_API_URL, version included). Every call has a
 * timeout; failures become GraphApiError (graph-errors.ts). Retries use exponential backoff with jitter and
 * only where waiting can help: 5xx, 130429 (throughput), 131057 (maintenance) and network failures. A send
 * or template creation whose request may already have reached Meta (timeout, reset) is not retried, since
 * Meta has no idempotency key and a retry could deliver twice; only "could not connect" is retried for those.
 * The token is sent as a header and never logged; logs carry method, path (no query) and codes.
 */
import { GraphApiError, graphErrorFromResponse, isRetryable } from './graph-errors';
import type {
  DownloadedMedia,
  GraphCredentials,
  GraphFlow,
  GraphTemplate,
  InteractiveHeader,
  ListSection,
  MediaContent,
  MediaInfo,
  MediaKind,
  MediaRef,
  OutboundMessage,
  PhoneNumberInfo,
  SendOptions,
  SendResult,
  TemplateCreateBody,
  TemplateCreateResult,
  TemplateListQuery,
  TemplateParameter,
  TemplateSendComponent,
  UploadFile,
} from './graph-types';

export * from './graph-types';
export { GraphApiError } from './graph-errors';

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
}

export interface GraphClient {
  sendMessage(creds: GraphCredentials, to: string, message: OutboundMessage, opts?: SendOptions): Promise<SendResult>;
  markRead(creds: GraphCredentials, wamid: string, opts?: { typingIndicator?: boolean }): Promise<void>;
  createTemplate(creds: GraphCredentials, body: TemplateCreateBody): Promise<TemplateCreateResult>;
  /** Every template of the WABA, following paging.next to the end. */
  listTemplates(creds: GraphCredentials, query?: TemplateListQuery): Promise<GraphTemplate[]>;
  /** Without hsmId Meta deletes the name in every language. */
  deleteTemplate(creds: GraphCredentials, name: string, hsmId?: string): Promise<void>;
  uploadMedia(creds: GraphCredentials, file: UploadFile): Promise<{ id: string }>;
  getMedia(creds: GraphCredentials, mediaId: string): Promise<MediaInfo>;
  /** Resolves the 5-minute URL and downloads it with the token (inbound media). */
  downloadMedia(creds: GraphCredentials, mediaId: string): Promise<DownloadedMedia>;
  deleteMedia(creds: GraphCredentials, mediaId: string): Promise<void>;
  /** Resumable Upload API: the handle (`h`) a template's media header example needs. Resumes after a drop. */
  resumableUpload(creds: GraphCredentials, file: UploadFile): Promise<{ handle: string }>;
  listFlows(creds: GraphCredentials): Promise<GraphFlow[]>;
  /** The number behind phoneNumberId as the token sees it: checks credentials before an account is saved. */
  getPhoneNumber(creds: GraphCredentials): Promise<PhoneNumberInfo>;
}

interface Call {
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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createGraphClient(opts: GraphClientOptions): GraphClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const baseOrigin = new URL(base).origin;
  const doFetch = opts.fetch ?? fetch;
  const retries = Math.max(0, opts.retries ?? 3);
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const uploadTimeoutMs = opts.uploadTimeoutMs ?? 120_000;
  const backoffBase = opts.backoffBaseMs ?? 500;
  const backoffMax = opts.backoffMaxMs ?? 8_000;

  const backoff = (attempt: number, retryAfter: string | null): number => {
    const exp = Math.min(backoffMax, backoffBase * 2 ** attempt);
    const jittered = exp / 2 + Math.random() * (exp / 2);
    const hinted = retryAfter && /^\d+$/.test(retryAfter) ? Math.min(Number(retryAfter) * 1000, backoffMax) : 0;
    return Math.max(jittered, hinted);
  };

  const urlFor = (call: Call): URL => {
    const url = /^https?:\/\//.test(call.path) ? new URL(call.path) : new URL(`${base}/${call.path.replace(/^\/+/, '')}`);
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    return url;
  };

  async function attempt(token: string, call: Call): Promise<{ res: Response; body: unknown }> {
    const url = urlFor(call);
    const headers: Record<string, string> = { authorization: `${call.scheme ?? 'Bearer'} ${token}` };
    let body: BodyInit | undefined;
    if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.json);
    } else if (call.form) {
      body = call.form;
    } else if (call.raw) {
      Object.assign(headers, call.raw.headers);
      // Node's fetch sends any Uint8Array; the DOM typings only admit ArrayBuffer-backed views.
      body = call.raw.data as Uint8Array<ArrayBuffer>;
    }
    const signals = [AbortSignal.timeout(call.timeoutMs ?? timeoutMs), ...(call.signal ? [call.signal] : [])];
    const res = await doFetch(url, { method: call.method, headers, body, signal: AbortSignal.any(signals) });
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

  /** One Graph call with timeout, error mapping and the retry policy above. */
  async function request<T>(token: string, call: Call): Promise<T> {
    const where = `${call.method} ${urlFor(call).pathname}`;
    const maxAttempts = call.retry === false ? 1 : retries + 1;
    for (let n = 0; ; n++) {
      let error: GraphApiError;
      let retryAfter: string | null = null;
      try {
        const { res, body } = await attempt(token, call);
        if (res.ok) return body as T;
        error = graphErrorFromResponse(res.status, body);
        retryAfter = res.headers.get('retry-after');
      } catch (err) {
        if (call.signal?.aborted) throw err;
        const timedOut = (err as Error).name === 'TimeoutError';
        const code = causeCode(err);
        error = new GraphApiError({
          httpStatus: 0,
          network: true,
          timeout: timedOut,
          message: timedOut ? `${where} timed out` : `${where} failed: ${code ?? (err as Error).message}`,
        });
        // The request may have reached Meta: repeating a non-idempotent call could send twice.
        if (!call.idempotent && (timedOut || !code || !notConnected.has(code))) {
          throw new GraphApiError({ httpStatus: 0, network: true, timeout: timedOut, message: error.message, mayHaveArrived: true });
        }
      }
      if (error.code === 130429 && call.retryThrottled === false) throw error;
      const retryable = isRetryable(error.httpStatus, error.code, error.network);
      if (!retryable || n + 1 >= maxAttempts) throw error;
      const delay = backoff(n, retryAfter);
      opts.log?.warn({ where, attempt: n + 1, httpStatus: error.httpStatus, code: error.code, retryInMs: Math.round(delay) }, 'Graph API call failed; retrying');
      await sleep(delay);
    }
  }

  /** Follows paging.next on the same origin only, so the token never goes to a host Graph did not name as itself. */
  async function collect<T>(token: string, first: Call): Promise<T[]> {
    const items: T[] = [];
    let call: Call | undefined = first;
    for (let pages = 0; call && pages < 1000; pages++) {
      const page: { data?: T[]; paging?: { next?: string } } = await request(token, call);
      items.push(...(page.data ?? []));
      const next = page.paging?.next;
      call = next && new URL(next).origin === baseOrigin ? { method: 'GET', path: next, idempotent: true } : undefined;
    }
    return items;
  }

  const enc = encodeURIComponent;

  const getMedia = (creds: GraphCredentials, mediaId: string) =>
    request<MediaInfo>(creds.token, { method: 'GET', path: enc(mediaId), query: { phone_number_id: creds.phoneNumberId }, idempotent: true });

  return {
    async sendMessage(creds, to, message, o = {}) {
      const res = await request<{ contacts?: { input: string; wa_id: string }[]; messages?: { id: string; message_status?: string }[] }>(creds.token, {
        method: 'POST',
        path: `${enc(creds.phoneNumberId)}/messages`,
        json: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to,
          ...message,
          ...(o.replyTo ? { context: { message_id: o.replyTo } } : {}),
          ...(o.bizOpaqueCallbackData ? { biz_opaque_callback_data: o.bizOpaqueCallbackData } : {}),
        },
        idempotent: false,
        retryThrottled: o.retryThrottled,
        signal: o.signal,
      });
      const sent = res.messages?.[0];
      if (!sent?.id) throw new GraphApiError({ httpStatus: 200, message: 'Graph accepted the message but answered no message id', mayHaveArrived: true });
      return { wamid: sent.id, waId: res.contacts?.[0]?.wa_id ?? to.replace(/\D/g, ''), messageStatus: sent.message_status };
    },

    async markRead(creds, wamid, o = {}) {
      await request(creds.token, {
        method: 'POST',
        path: `${enc(creds.phoneNumberId)}/messages`,
        json: { messaging_product: 'whatsapp', status: 'read', message_id: wamid, ...(o.typingIndicator ? { typing_indicator: { type: 'text' } } : {}) },
        // Marking read twice is harmless.
        idempotent: true,
      });
    },

    createTemplate(creds, body) {
      return request<TemplateCreateResult>(creds.token, {
        method: 'POST',
        path: `${enc(creds.wabaAccountId)}/message_templates`,
        json: body,
        idempotent: false,
      });
    },

    listTemplates(creds, q = {}) {
      return collect<GraphTemplate>(creds.token, {
        method: 'GET',
        path: `${enc(creds.wabaAccountId)}/message_templates`,
        query: {
          fields: 'id,name,status,category,language,components,parameter_format,rejected_reason',
          limit: String(q.pageSize ?? 100),
          name: q.name,
          status: q.status,
        },
        idempotent: true,
      });
    },

    async deleteTemplate(creds, name, hsmId) {
      await request(creds.token, {
        method: 'DELETE',
        path: `${enc(creds.wabaAccountId)}/message_templates`,
        query: { name, hsm_id: hsmId },
        idempotent: true,
      });
    },

    uploadMedia(creds, file) {
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', file.mimeType);
      form.append('file', new Blob([file.data as Uint8Array<ArrayBuffer>], { type: file.mimeType }), file.fileName);
      // Re-uploading after a lost answer only leaves an unused media id behind, so retrying is safe.
      return request<{ id: string }>(creds.token, {
        method: 'POST',
        path: `${enc(creds.phoneNumberId)}/media`,
        form,
        idempotent: true,
        timeoutMs: uploadTimeoutMs,
      });
    },

    getMedia,

    async downloadMedia(creds, mediaId) {
      const info = await getMedia(creds, mediaId);
      // The token goes with the download (Meta requires it), so only to Graph itself or over https.
      const target = new URL(info.url);
      if (target.origin !== baseOrigin && target.protocol !== 'https:') {
        throw new GraphApiError({ httpStatus: 200, message: 'Graph answered a media URL that is neither https nor on the Graph host' });
      }
      const data = await request<Buffer>(creds.token, { method: 'GET', path: info.url, idempotent: true, binary: true, timeoutMs: uploadTimeoutMs });
      return { data, mimeType: info.mime_type, sha256: info.sha256, size: data.length };
    },

    async deleteMedia(creds, mediaId) {
      await request(creds.token, { method: 'DELETE', path: enc(mediaId), idempotent: true });
    },

    async resumableUpload(creds, file) {
      const session = await request<{ id: string }>(creds.token, {
        method: 'POST',
        path: `${enc(creds.appId)}/uploads`,
        query: { file_name: file.fileName, file_length: String(file.data.length), file_type: file.mimeType },
        idempotent: true,
      });
      let offset = 0;
      let lastError: unknown;
      for (let n = 0; n <= retries; n++) {
        try {
          const res = await request<{ h?: string; file_offset?: number }>(creds.token, {
            method: 'POST',
            path: enc(session.id).replace(/%3A/gi, ':'),
            raw: { data: file.data.subarray(offset), headers: { file_offset: String(offset), 'content-type': 'application/octet-stream' } },
            scheme: 'OAuth',
            idempotent: false,
            retry: false,
            timeoutMs: uploadTimeoutMs,
          });
          if (res.h) return { handle: res.h };
          lastError = new GraphApiError({ httpStatus: 200, message: 'Upload session answered no handle' });
        } catch (err) {
          if (!(err instanceof GraphApiError) || !err.retryable) throw err;
          lastError = err;
          opts.log?.warn({ where: 'POST upload session', attempt: n + 1, httpStatus: err.httpStatus, code: err.code }, 'Resumable upload interrupted; resuming');
          await sleep(backoff(n, null));
        }
        // Ask Graph how much arrived, then send the rest from there.
        const status = await request<{ file_offset?: number }>(creds.token, {
          method: 'GET',
          path: enc(session.id).replace(/%3A/gi, ':'),
          scheme: 'OAuth',
          idempotent: true,
        });
        offset = Number(status.file_offset ?? 0);
      }
      throw lastError;
    },

    listFlows(creds) {
      return collect<GraphFlow>(creds.token, {
        method: 'GET',
        path: `${enc(creds.wabaAccountId)}/flows`,
        query: { fields: 'id,name,status,categories,validation_errors' },
        idempotent: true,
      });
    },

    getPhoneNumber(creds) {
      return request<PhoneNumberInfo>(creds.token, {
        method: 'GET',
        path: enc(creds.phoneNumberId),
        query: { fields: 'id,display_phone_number,verified_name,quality_rating,code_verification_status,platform_type,throughput,messaging_limit_tier' },
        idempotent: true,
      });
    },
  };
}

// ---------- message builders (the type-specific part of a send, reference §1) ----------

const mediaMessage = (kind: MediaKind, ref: MediaRef, extra: { caption?: string; filename?: string } = {}): OutboundMessage => {
  const content: MediaContent = { ...ref, ...(extra.caption ? { caption: extra.caption } : {}), ...(extra.filename ? { filename: extra.filename } : {}) };
  return { type: kind, [kind]: content } as OutboundMessage;
};

export const messages = {
  text(body: string, opts: { previewUrl?: boolean } = {}): OutboundMessage {
    return { type: 'text', text: { body, ...(opts.previewUrl !== undefined ? { preview_url: opts.previewUrl } : {}) } };
  },
  image: (ref: MediaRef, opts: { caption?: string } = {}) => mediaMessage('image', ref, opts),
  video: (ref: MediaRef, opts: { caption?: string } = {}) => mediaMessage('video', ref, opts),
  document: (ref: MediaRef, opts: { caption?: string; filename?: string } = {}) => mediaMessage('document', ref, opts),
  audio: (ref: MediaRef) => mediaMessage('audio', ref),
  sticker: (ref: MediaRef) => mediaMessage('sticker', ref),
  media(kind: MediaKind, ref: MediaRef, opts: { caption?: string; filename?: string } = {}): OutboundMessage {
    // Audio and stickers take neither caption nor filename; Graph refuses them.
    return kind === 'audio' || kind === 'sticker' ? mediaMessage(kind, ref) : mediaMessage(kind, ref, kind === 'document' ? opts : { caption: opts.caption });
  },
  template(name: string, languageCode: string, components: TemplateSendComponent[] = []): OutboundMessage {
    return { type: 'template', template: { name, language: { code: languageCode }, ...(components.length ? { components } : {}) } };
  },
  list(o: { header?: string; body: string; footer?: string; button: string; sections: ListSection[] }): OutboundMessage {
    return {
      type: 'interactive',
      interactive: {
        type: 'list',
        ...(o.header ? { header: { type: 'text', text: o.header } } : {}),
        body: { text: o.body },
        ...(o.footer ? { footer: { text: o.footer } } : {}),
        action: { button: o.button, sections: o.sections },
      },
    };
  },
  buttons(o: { header?: InteractiveHeader; body: string; footer?: string; buttons: { id: string; title: string }[] }): OutboundMessage {
    return {
      type: 'interactive',
      interactive: {
        type: 'button',
        ...(o.header ? { header: o.header } : {}),
        body: { text: o.body },
        ...(o.footer ? { footer: { text: o.footer } } : {}),
        action: { buttons: o.buttons.map((b) => ({ type: 'reply' as const, reply: { id: b.id, title: b.title } })) },
      },
    };
  },
  /** A flow; `screen` navigates to it (the default action), omit it for data_exchange flows. */
  flow(o: {
    header?: InteractiveHeader;
    body: string;
    footer?: string;
    flowId?: string;
    flowName?: string;
    cta: string;
    /** Encode what identifies the flow and conversation here: the completion webhook carries only this. */
    flowToken?: string;
    screen?: string;
    data?: Record<string, unknown>;
    mode?: 'draft' | 'published';
  }): OutboundMessage {
    const navigate = o.screen !== undefined;
    return {
      type: 'interactive',
      interactive: {
        type: 'flow',
        ...(o.header ? { header: o.header } : {}),
        body: { text: o.body },
        ...(o.footer ? { footer: { text: o.footer } } : {}),
        action: {
          name: 'flow',
          parameters: {
            flow_message_version: '3',
            ...(o.flowToken ? { flow_token: o.flowToken } : {}),
            ...(o.flowId ? { flow_id: o.flowId } : { flow_name: o.flowName }),
            flow_cta: o.cta,
            flow_action: navigate ? 'navigate' : 'data_exchange',
            ...(navigate ? { flow_action_payload: { screen: o.screen!, ...(o.data ? { data: o.data } : {}) } } : {}),
            ...(o.mode ? { mode: o.mode } : {}),
          },
        },
      },
    };
  },
};

/** Template send components from plain values: positional (array) or named (object) body/header texts. */
export function templateComponents(o: {
  header?: TemplateParameter;
  body?: string[] | Record<string, string>;
  buttons?: { index: number; subType: 'quick_reply' | 'url' | 'copy_code' | 'flow'; parameter: TemplateParameter }[];
}): TemplateSendComponent[] {
  const out: TemplateSendComponent[] = [];
  if (o.header) out.push({ type: 'header', parameters: [o.header] });
  if (o.body) {
    const parameters: TemplateParameter[] = Array.isArray(o.body)
      ? o.body.map((text) => ({ type: 'text', text }))
      : Object.entries(o.body).map(([parameter_name, text]) => ({ type: 'text', parameter_name, text }));
    if (parameters.length) out.push({ type: 'body', parameters });
  }
  for (const b of o.buttons ?? []) out.push({ type: 'button', sub_type: b.subType, index: String(b.index), parameters: [b.parameter] });
  return out;
}
