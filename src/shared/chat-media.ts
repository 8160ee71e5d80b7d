/**
 * Addition: what the composer may attach, by WhatsApp Cloud API's media types and sizes
 * (shared/reference/whatsapp-cloud-api.md §5): image jpeg/png 5 MB; video mp4/3gpp 16 MB; audio 16 MB;
 * document 100 MB. The renderer checks before uploading and the server again after (same table, same words).
 */
export const chatMediaKinds = ['image', 'video', 'audio', 'document'] as const;
export type ChatMediaKind = (typeof chatMediaKinds)[number];

const MB = 1024 * 1024;

export const chatMedia: Record<ChatMediaKind, { label: string; maxBytes: number; mimeTypes: readonly string[] }> = {
  image: { label: 'Images', maxBytes: 5 * MB, mimeTypes: ['image/jpeg', 'image/png'] },
  video: { label: 'Videos', maxBytes: 16 * MB, mimeTypes: ['video/mp4', 'video/3gpp'] },
  audio: { label: 'Audio files', maxBytes: 16 * MB, mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'] },
  document: {
    label: 'Documents',
    maxBytes: 100 * MB,
    mimeTypes: [
      'application/pdf',
      'text/plain',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
  },
};

/** Every accepted type (the upload route's list, the file picker's `accept`). */
export const chatMediaMimeTypes: readonly string[] = chatMediaKinds.flatMap((k) => chatMedia[k].mimeTypes);
/** The largest file any kind allows (the upload route's own cap; each kind is then held to its own). */
export const chatMediaMaxBytes = Math.max(...chatMediaKinds.map((k) => chatMedia[k].maxBytes));
/** WhatsApp: captions of images, videos and documents (audio takes none). */
export const chatMediaCaptionMax = 1024;

const normalise = (mime: string) => mime.toLowerCase().split(';')[0].trim();

export function chatMediaKindOf(mimeType: string): ChatMediaKind | null {
  const m = normalise(mimeType);
  return chatMediaKinds.find((k) => chatMedia[k].mimeTypes.includes(m)) ?? null;
}

const mb = (n: number) => `${Number((n / MB).toFixed(1)).toLocaleString('en-US')} MB`;

export const chatMediaTypeRefused = (mimeType: string) =>
  `WhatsApp does not accept files of type ${normalise(mimeType) || 'unknown'}. ` +
  'Send JPEG or PNG images, MP4 or 3GPP videos, AAC, AMR, MP3, MP4 or OGG audio, or PDF, Word, Excel, PowerPoint or text documents.';

export const chatMediaTooLarge = (kind: ChatMediaKind, size: number) =>
  `This file is ${mb(size)}; WhatsApp accepts ${chatMedia[kind].label.toLowerCase()} up to ${mb(chatMedia[kind].maxBytes)}.`;

/** Null when WhatsApp takes the file, else the reason in words for the agent. */
export function chatMediaProblem(mimeType: string, size: number): string | null {
  const kind = chatMediaKindOf(mimeType);
  if (!kind) return chatMediaTypeRefused(mimeType);
  if (size > chatMedia[kind].maxBytes) return chatMediaTooLarge(kind, size);
  if (size === 0) return 'This file is empty.';
  return null;
}
