/**
 * Parley's client for the WhatsApp Cloud API (Graph API at GRAPH_API_URL, version included). Every call has a
 * timeout; failures become GraphApiError (graph-errors.ts). Retries use exponential backoff with jitter and
 * only where waiting can help: 5xx, 130429 (throughput), 131057 (maintenance) and network failures. A send
 * or template creation whose request may already have reached Meta (timeout, reset) is not retried, since
 * Meta has no idempotency key and a retry could deliver twice; only "could not connect" is retried for those.
 * The token is sent as a header and never logged; logs carry method, path (no query) and codes.
 */
import { GraphApiError } from './graph-errors';
import { type GraphClientOptions, type GraphTransport, createGraphTransport, sleep } from './graph-transport';
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
  RecipientAddress,
} from './graph-types';
import { addressFields } from './graph-types';

export * from './graph-types';
export { GraphApiError } from './graph-errors';

export interface GraphClient {
  sendMessage(creds: GraphCredentials, to: RecipientAddress, message: OutboundMessage, opts?: SendOptions): Promise<SendResult>;
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

const enc = encodeURIComponent;
/** An upload session id keeps its colon (`upload:...`). */
const sessionPath = (id: string) => enc(id).replace(/%3A/gi, ':');

function messageCalls(t: GraphTransport): Pick<GraphClient, 'sendMessage' | 'markRead'> {
  return {
    async sendMessage(creds, to, message, o = {}) {
      const address = addressFields(to);
      const res = await t.request<{ contacts?: { input: string; wa_id?: string; user_id?: string }[]; messages?: { id: string; message_status?: string }[] }>(creds.token, {
        method: 'POST',
        path: `${enc(creds.phoneNumberId)}/messages`,
        json: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          ...address,
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
      const answered = res.contacts?.[0];
      const waId = 'to' in address ? (answered?.wa_id ?? address.to.replace(/\D/g, '')) : (answered?.user_id ?? address.recipient);
      return { wamid: sent.id, waId, messageStatus: sent.message_status };
    },

    async markRead(creds, wamid, o = {}) {
      await t.request(creds.token, {
        method: 'POST',
        path: `${enc(creds.phoneNumberId)}/messages`,
        json: { messaging_product: 'whatsapp', status: 'read', message_id: wamid, ...(o.typingIndicator ? { typing_indicator: { type: 'text' } } : {}) },
        // Marking read twice is harmless.
        idempotent: true,
      });
    },
  };
}

function templateCalls(t: GraphTransport): Pick<GraphClient, 'createTemplate' | 'listTemplates' | 'deleteTemplate'> {
  return {
    createTemplate(creds, body) {
      return t.request<TemplateCreateResult>(creds.token, {
        method: 'POST',
        path: `${enc(creds.wabaAccountId)}/message_templates`,
        json: body,
        idempotent: false,
      });
    },

    listTemplates(creds, q = {}) {
      return t.collect<GraphTemplate>(creds.token, {
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
      await t.request(creds.token, {
        method: 'DELETE',
        path: `${enc(creds.wabaAccountId)}/message_templates`,
        query: { name, hsm_id: hsmId },
        idempotent: true,
      });
    },
  };
}

function mediaCalls(t: GraphTransport): Pick<GraphClient, 'uploadMedia' | 'getMedia' | 'downloadMedia' | 'deleteMedia'> {
  const getMedia = (creds: GraphCredentials, mediaId: string) =>
    t.request<MediaInfo>(creds.token, { method: 'GET', path: enc(mediaId), query: { phone_number_id: creds.phoneNumberId }, idempotent: true });
  return {
    uploadMedia(creds, file) {
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', file.mimeType);
      form.append('file', new Blob([file.data as Uint8Array<ArrayBuffer>], { type: file.mimeType }), file.fileName);
      // Re-uploading after a lost answer only leaves an unused media id behind, so retrying is safe.
      return t.request<{ id: string }>(creds.token, {
        method: 'POST',
        path: `${enc(creds.phoneNumberId)}/media`,
        form,
        idempotent: true,
        timeoutMs: t.uploadTimeoutMs,
      });
    },

    getMedia,

    async downloadMedia(creds, mediaId) {
      const info = await getMedia(creds, mediaId);
      // The token goes with the download (Meta requires it), so only to Graph itself or over https.
      const target = new URL(info.url);
      if (target.origin !== t.baseOrigin && target.protocol !== 'https:') {
        throw new GraphApiError({ httpStatus: 200, message: 'Graph answered a media URL that is neither https nor on the Graph host' });
      }
      const data = await t.request<Buffer>(creds.token, { method: 'GET', path: info.url, idempotent: true, binary: true, timeoutMs: t.uploadTimeoutMs });
      return { data, mimeType: info.mime_type, sha256: info.sha256, size: data.length };
    },

    async deleteMedia(creds, mediaId) {
      await t.request(creds.token, { method: 'DELETE', path: enc(mediaId), idempotent: true });
    },
  };
}

/** Resumable Upload API: opens a session, sends the file, and after a drop resumes from where Graph says. */
function resumableUpload(t: GraphTransport): GraphClient['resumableUpload'] {
  return async (creds, file) => {
    const session = await t.request<{ id: string }>(creds.token, {
      method: 'POST',
      path: `${enc(creds.appId)}/uploads`,
      query: { file_name: file.fileName, file_length: String(file.data.length), file_type: file.mimeType },
      idempotent: true,
    });
    let offset = 0;
    let lastError: unknown;
    for (let n = 0; n <= t.retries; n++) {
      try {
        const res = await t.request<{ h?: string; file_offset?: number }>(creds.token, {
          method: 'POST',
          path: sessionPath(session.id),
          raw: { data: file.data.subarray(offset), headers: { file_offset: String(offset), 'content-type': 'application/octet-stream' } },
          scheme: 'OAuth',
          idempotent: false,
          retry: false,
          timeoutMs: t.uploadTimeoutMs,
        });
        if (res.h) return { handle: res.h };
        lastError = new GraphApiError({ httpStatus: 200, message: 'Upload session answered no handle' });
      } catch (err) {
        if (!(err instanceof GraphApiError) || !err.retryable) throw err;
        lastError = err;
        t.log?.warn({ where: 'POST upload session', attempt: n + 1, httpStatus: err.httpStatus, code: err.code }, 'Resumable upload interrupted; resuming');
        await sleep(t.backoff(n, null));
      }
      // Ask Graph how much arrived, then send the rest from there.
      const status = await t.request<{ file_offset?: number }>(creds.token, { method: 'GET', path: sessionPath(session.id), scheme: 'OAuth', idempotent: true });
      offset = Number(status.file_offset ?? 0);
    }
    throw lastError;
  };
}

function accountCalls(t: GraphTransport): Pick<GraphClient, 'listFlows' | 'getPhoneNumber'> {
  return {
    listFlows(creds) {
      return t.collect<GraphFlow>(creds.token, {
        method: 'GET',
        path: `${enc(creds.wabaAccountId)}/flows`,
        query: { fields: 'id,name,status,categories,validation_errors' },
        idempotent: true,
      });
    },

    getPhoneNumber(creds) {
      return t.request<PhoneNumberInfo>(creds.token, {
        method: 'GET',
        path: enc(creds.phoneNumberId),
        query: { fields: 'id,display_phone_number,verified_name,quality_rating,code_verification_status,platform_type,throughput,messaging_limit_tier,whatsapp_business_manager_messaging_limit' },
        idempotent: true,
      });
    },
  };
}

export function createGraphClient(opts: GraphClientOptions): GraphClient {
  const t = createGraphTransport(opts);
  return { ...messageCalls(t), ...templateCalls(t), ...mediaCalls(t), resumableUpload: resumableUpload(t), ...accountCalls(t) };
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
