/**
 * What a stored message shows, whatever its type. `header`, `action` and `templateComponents` are JSON on the
 * wire, in the shapes of WhatsApp's Cloud API (interactive header/action objects, template components as
 * defined or as sent); they are read defensively so one odd message cannot break the conversation view.
 */
import type { Message } from '@shared/schemas/entities';
import { fillTemplateVariables } from '@shared/template-variables';

export type MediaKind = 'image' | 'video' | 'document' | 'audio';

export interface MessageContent {
  header?: { text: string } | { media: MediaKind; url: string | null; filename?: string };
  media?: { kind: MediaKind; url: string | null; filename?: string };
  body?: string;
  footer?: string;
  /** Reply buttons, template buttons. */
  buttons?: { title: string; kind?: string }[];
  list?: { button: string; sections: { title?: string; rows: { id: string; title: string; description?: string }[] }[] };
  flow?: { cta: string };
  template?: { name?: string; language?: string };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const mediaKinds: readonly string[] = ['image', 'video', 'document'];

function mediaLink(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (isObj(v)) return str(v.link) ?? str(v.url) ?? null;
  return null;
}

function readHeader(h: unknown, mediaUrl: string | null): MessageContent['header'] {
  if (typeof h === 'string') return h ? { text: h } : undefined;
  if (!isObj(h)) return undefined;
  const type = (str(h.type) ?? str(h.format) ?? '').toLowerCase();
  if (type === 'text' || (!type && str(h.text))) {
    const text = str(h.text);
    return text ? { text } : undefined;
  }
  if (mediaKinds.includes(type)) {
    const inner = h[type];
    return {
      media: type as MediaKind,
      url: mediaLink(inner) ?? str(h.link) ?? str(h.url) ?? mediaUrl,
      filename: isObj(inner) ? str(inner.filename) : str(h.filename),
    };
  }
  return undefined;
}

function readButtons(action: unknown): MessageContent['buttons'] {
  if (!isObj(action) || !Array.isArray(action.buttons)) return undefined;
  const out = action.buttons
    .map((b) => {
      if (typeof b === 'string') return { title: b };
      if (!isObj(b)) return null;
      const title = str(isObj(b.reply) ? b.reply.title : undefined) ?? str(b.title) ?? str(b.text);
      return title ? { title, kind: str(b.type) } : null;
    })
    .filter((b): b is { title: string; kind: string | undefined } => !!b);
  return out.length ? out : undefined;
}

function readList(action: unknown): MessageContent['list'] {
  if (!isObj(action) || !Array.isArray(action.sections)) return undefined;
  const sections = action.sections.filter(isObj).map((s) => ({
    title: str(s.title),
    rows: (Array.isArray(s.rows) ? s.rows : [])
      .filter(isObj)
      .map((r, i) => ({ id: str(r.id) ?? String(i), title: str(r.title) ?? '', description: str(r.description) })),
  }));
  return { button: str(action.button) ?? 'Options', sections };
}

function readFlow(action: unknown): MessageContent['flow'] {
  if (!isObj(action)) return undefined;
  const params = isObj(action.parameters) ? action.parameters : action;
  const cta = str(params.flow_cta) ?? str(params.cta);
  return cta ? { cta } : undefined;
}

/** Reads a template message: `templateComponents` as defined (HEADER/BODY/FOOTER/BUTTONS) or as sent. */
function readTemplate(m: Message, out: MessageContent): void {
  const raw = m.templateComponents;
  const meta = isObj(raw) ? raw : {};
  const list: unknown[] = Array.isArray(raw) ? raw : Array.isArray(meta.components) ? meta.components : [];
  out.template = { name: str(meta.name), language: str(meta.language) ?? (isObj(meta.language) ? str(meta.language.code) : undefined) };
  const bodyParams: string[] = [];
  const headerParams: string[] = [];
  let bodyText: string | undefined;
  for (const c of list.filter(isObj)) {
    const type = (str(c.type) ?? '').toUpperCase();
    const params = Array.isArray(c.parameters) ? c.parameters.filter(isObj) : [];
    const texts = params.map((p) => str(p.text)).filter((t): t is string => !!t);
    if (type === 'HEADER') {
      if (params.length && !str(c.format)) {
        const p = params[0];
        const kind = str(p.type);
        if (kind && mediaKinds.includes(kind)) out.header = { media: kind as MediaKind, url: mediaLink(p[kind]) ?? m.mediaUrl };
        headerParams.push(...texts);
      } else {
        const format = (str(c.format) ?? 'TEXT').toLowerCase();
        if (format === 'text' && str(c.text)) out.header = { text: str(c.text)! };
        else if (mediaKinds.includes(format)) out.header = { media: format as MediaKind, url: m.mediaUrl };
      }
    } else if (type === 'BODY') {
      bodyText = str(c.text) ?? bodyText;
      bodyParams.push(...texts);
    } else if (type === 'FOOTER') {
      out.footer = str(c.text) ?? out.footer;
    } else if (type === 'BUTTONS' && Array.isArray(c.buttons)) {
      out.buttons = readButtons(c);
    }
  }
  if (out.header && 'text' in out.header && headerParams.length) out.header = { text: fillTemplateVariables(out.header.text, headerParams) };
  out.body = m.text ?? (bodyText ? fillTemplateVariables(bodyText, bodyParams) : undefined);
}

export function messageContent(m: Message): MessageContent {
  const out: MessageContent = {};
  switch (m.type) {
    case 'image':
    case 'video':
    case 'document':
    case 'audio': {
      const meta = isObj(m.header) ? m.header : {};
      out.media = { kind: m.type, url: m.mediaUrl, filename: str(meta.filename) };
      out.body = m.text ?? undefined;
      break;
    }
    case 'template':
      readTemplate(m, out);
      break;
    default:
      out.header = readHeader(m.header, m.mediaUrl);
      out.body = m.text ?? undefined;
      if (m.type === 'reply') out.buttons = readButtons(m.action);
      if (m.type === 'list') out.list = readList(m.action);
      if (m.type === 'flow') out.flow = readFlow(m.action);
  }
  if (m.footer) out.footer = m.footer;
  return out;
}

/** One line for the conversation list. */
export function messagePreview(m: Pick<Message, 'type' | 'text' | 'templateComponents' | 'header' | 'mediaUrl' | 'action' | 'footer'>): string {
  const text = m.text?.replace(/\s+/g, ' ').trim();
  switch (m.type) {
    case 'image':
      return text ? `📷 ${text}` : '📷 Photo';
    case 'video':
      return text ? `🎥 ${text}` : '🎥 Video';
    case 'document':
      return text ? `📄 ${text}` : '📄 Document';
    case 'audio':
      return '🎵 Audio';
    case 'note':
      return `📝 Note: ${text ?? ''}`;
    case 'template': {
      if (text) return text;
      const body = messageContent(m as Message).body;
      return body ? body.replace(/\s+/g, ' ') : 'Template message';
    }
    default:
      return text || (m.type === 'list' ? 'List message' : m.type === 'flow' ? 'Flow message' : 'Message');
  }
}
