/** A send's content as the Graph message that goes to Meta and as what the conversation stores of it. */
import type * as ch from '../repositories/channel';
import { type InteractiveHeader, type OutboundMessage, messages as wire } from '../whatsapp/graph-client';
import type { OutboundDeps } from './outbound-deps';
import type { OutboundContent, OutboundHeader } from './outbound-request';

export type StoredContent = Pick<ch.MessageRow, 'type' | 'text' | 'mediaUrl' | 'header' | 'action' | 'footer' | 'templateComponents'>;

/** A link Meta can fetch: a file of our own store becomes an expiring signed link, any other link stays. */
type PublicLink = (link: string) => string;

export const publicLinkOf =
  (files: OutboundDeps['files']): PublicLink =>
  (link) => {
    const key = files.keyFromUrl(link);
    return key ? files.signedUrl(key, 24 * 3600) : link;
  };

function publicHeader(h: OutboundHeader | undefined, publicLink: PublicLink): InteractiveHeader | undefined {
  if (!h || h.type === 'text') return h as InteractiveHeader | undefined;
  const media = (h as unknown as Record<string, { link?: string }>)[h.type];
  return (media.link ? { type: h.type, [h.type]: { ...media, link: publicLink(media.link) } } : h) as InteractiveHeader;
}

function interactiveStored(type: 'reply' | 'flow', content: { header?: OutboundHeader; body: string; footer?: string }, message: OutboundMessage): StoredContent {
  const action = message.type === 'interactive' ? (message.interactive.action as Record<string, unknown>) : null;
  return {
    type,
    header: content.header ?? null,
    text: content.body,
    footer: content.footer ?? null,
    action,
    mediaUrl: null,
    templateComponents: null,
  };
}

/** The Graph message and what the conversation stores of it. */
export function renderOutbound(content: OutboundContent, publicLink: PublicLink): { message: OutboundMessage; stored: StoredContent } {
  const none = { text: null, mediaUrl: null, header: null, action: null, footer: null, templateComponents: null };
  switch (content.type) {
    case 'text':
      return {
        message: wire.text(content.text, { previewUrl: content.previewUrl ?? /https?:\/\//.test(content.text) }),
        stored: { ...none, type: 'text', text: content.text },
      };
    case 'template':
      return {
        message: wire.template(content.name, content.language, content.components as never),
        stored: {
          ...none,
          type: 'template',
          header: content.header,
          text: content.text,
          footer: content.footer,
          action: content.action,
          templateComponents: { templateId: content.templateId, name: content.name, language: content.language, components: content.components },
        },
      };
    case 'image':
    case 'video':
    case 'document':
    case 'audio': {
      const ref = 'link' in content.media ? { link: publicLink(content.media.link) } : { id: content.media.id };
      return {
        message: wire.media(content.type, ref, { caption: content.caption, filename: content.filename }),
        stored: {
          ...none,
          type: content.type,
          text: content.caption ?? null,
          mediaUrl: 'link' in content.media ? content.media.link : null,
          header: {
            type: content.type,
            ...('id' in content.media ? { mediaId: content.media.id } : {}),
            ...(content.filename ? { filename: content.filename } : {}),
          },
        },
      };
    }
    case 'list': {
      const message = wire.list(content);
      return {
        message,
        stored: {
          ...none,
          type: 'list',
          header: content.header ? { type: 'text', text: content.header } : null,
          text: content.body,
          footer: content.footer ?? null,
          action: { button: content.button, sections: content.sections },
        },
      };
    }
    case 'buttons': {
      const message = wire.buttons({ ...content, header: publicHeader(content.header, publicLink) });
      return { message, stored: interactiveStored('reply', content, message) };
    }
    case 'flow': {
      const message = wire.flow({ ...content, header: publicHeader(content.header, publicLink) });
      return { message, stored: interactiveStored('flow', content, message) };
    }
  }
}
