/**
 * Message contents: what Parley stores of each kind of inbound WhatsApp message, with its media file fetched
 * from the Graph media API and kept in the file store.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AccountRow } from '../repositories/channel';
import type { MessageContent } from './inbound-batch';
import type { InboundMedia, InboundMessage } from './webhook-payload';

export interface MediaDownloader {
  download(account: AccountRow, mediaId: string): Promise<{ data: Buffer; mimeType: string }>;
}

/** Where inbound media files are kept (the file store): what it answers is the URL the message shows. */
export interface MediaStore {
  put(file: { workspaceId: string; area: 'whatsapp-media'; fileName: string; mimeType: string; data: Buffer }): Promise<{ url: string }>;
}

export interface ContentsDeps {
  log: Pick<FastifyBaseLogger, 'warn'>;
  files: MediaStore;
  /** Without one, media messages are stored without their file. */
  media?: MediaDownloader;
}

type Interactive = NonNullable<InboundMessage['interactive']>;
type MediaKind = 'image' | 'video' | 'document' | 'audio' | 'sticker';

const base = { header: null, action: null, footer: null, mediaUrl: null, text: null };
const contextOf = (m: InboundMessage) => (m.context?.id ? { context: { id: m.context.id } } : {});

/** A button, list or flow reply; an interactive reply of another kind is stored as a note saying so. */
function interactiveContent(i: Interactive | undefined, context: ReturnType<typeof contextOf>): MessageContent {
  if (i?.type === 'button_reply' && i.button_reply) {
    return { ...base, type: 'reply', text: i.button_reply.title, action: { type: 'button_reply', ...i.button_reply, ...context } };
  }
  if (i?.type === 'list_reply' && i.list_reply) {
    return { ...base, type: 'list', text: i.list_reply.title, action: { type: 'list_reply', ...i.list_reply, ...context } };
  }
  if (i?.type === 'nfm_reply' && i.nfm_reply) {
    let response: unknown = i.nfm_reply.response_json;
    try {
      response = JSON.parse(i.nfm_reply.response_json);
    } catch {
      // Kept as the string Meta sent.
    }
    return {
      ...base,
      type: 'flow',
      text: i.nfm_reply.body ?? null,
      action: { type: 'nfm_reply', name: i.nfm_reply.name ?? 'flow', response_json: response, ...context },
    };
  }
  return { ...base, type: 'text', text: `Unsupported interactive reply (${i?.type ?? 'unknown'})` };
}

function locationContent(l: InboundMessage['location']): MessageContent {
  if (!l) return { ...base, type: 'text', text: 'Location' };
  const label = [l.name, l.address].filter(Boolean).join(', ');
  return { ...base, type: 'text', text: `${label ? `${label} ` : ''}(${l.latitude}, ${l.longitude})`, action: { type: 'location', ...l } };
}

export function messageContents(d: ContentsDeps) {
  /** Fetches an inbound media file from the Graph API and keeps it in the file store; null if it cannot. */
  async function keepMedia(account: AccountRow, media: InboundMedia, kind: string): Promise<string | null> {
    if (!d.media) return null;
    try {
      const file = await d.media.download(account, media.id);
      const ext = (media.mime_type ?? file.mimeType).split('/')[1]?.split(';')[0] ?? 'bin';
      const stored = await d.files.put({
        workspaceId: account.workspaceId,
        area: 'whatsapp-media',
        fileName: media.filename ?? `${kind}-${media.id}.${ext}`,
        mimeType: media.mime_type ?? file.mimeType,
        data: file.data,
      });
      return stored.url;
    } catch (err) {
      d.log.warn({ err, mediaId: media.id }, 'inbound media could not be fetched; the message is stored without it');
      return null;
    }
  }

  async function mediaContent(account: AccountRow, m: InboundMessage, kind: MediaKind): Promise<MessageContent> {
    const media = m[kind];
    if (!media) return { ...base, type: 'text', text: `Empty ${kind} message` };
    // The product's message types have no audio or sticker: a voice note is a document, a sticker an image.
    const type = kind === 'audio' ? 'document' : kind === 'sticker' ? 'image' : kind;
    return {
      ...base,
      type,
      text: media.caption ?? null,
      mediaUrl: await keepMedia(account, media, kind),
      header: { type: kind, mediaId: media.id, mimeType: media.mime_type ?? null, ...(media.filename ? { filename: media.filename } : {}) },
    };
  }

  /** What Parley stores of an inbound message; null for kinds that are not messages of the conversation. */
  async function contentOf(account: AccountRow, m: InboundMessage): Promise<MessageContent | null> {
    switch (m.type) {
      case 'text':
        return { ...base, type: 'text', text: m.text?.body ?? '' };
      case 'interactive':
        return interactiveContent(m.interactive, contextOf(m));
      case 'button':
        // A tap on a template's quick-reply button.
        return { ...base, type: 'reply', text: m.button?.text ?? '', action: { type: 'button', payload: m.button?.payload ?? null, ...contextOf(m) } };
      case 'image':
      case 'video':
      case 'document':
      case 'audio':
      case 'sticker':
        return mediaContent(account, m, m.type);
      case 'location':
        return locationContent(m.location);
      case 'reaction':
        // A reaction is about another message, not a message of its own.
        return null;
      default:
        return { ...base, type: 'text', text: `This message type is not supported yet (${m.type})` };
    }
  }

  return { contentOf };
}
export type MessageContents = ReturnType<typeof messageContents>;
