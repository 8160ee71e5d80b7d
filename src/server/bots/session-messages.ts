/** Messages across the seam of a live session: a customer's stored message as an answer, a bot's as a send. */
import type { BotPreviewAnswer } from '../../shared';
import type { OutboundContent } from '../messaging/outbound-request';
import type { BotMessage } from './executor-contract';

/** What a stored inbound message answers. */
export function answerOf(m: { type: string; text: string | null; action: unknown }): BotPreviewAnswer {
  const a = (m.action ?? {}) as { type?: string; id?: string; response_json?: unknown };
  if (m.type === 'reply' && a.type === 'button_reply' && a.id) return { type: 'button', id: a.id };
  if (m.type === 'list' && a.type === 'list_reply' && a.id) return { type: 'listRow', id: a.id };
  if (m.type === 'flow' && a.response_json && typeof a.response_json === 'object') return { type: 'flow', response: a.response_json as Record<string, string> };
  return { type: 'text', text: m.text ?? '' };
}

/** A bot message as the outbound path takes it (null for notes, which are only logged). */
export function toContent(m: BotMessage, sessionId: string): OutboundContent | null {
  const header = m.header ? { type: 'text' as const, text: m.header } : undefined;
  const footer = m.footer ?? undefined;
  switch (m.type) {
    case 'text':
      return { type: 'text', text: m.text ?? '' };
    case 'image':
    case 'video':
    case 'document':
      return {
        type: m.type,
        media: { link: m.mediaUrl ?? '' },
        ...(m.text ? { caption: m.text } : {}),
        ...(m.type === 'document' && m.filename ? { filename: m.filename } : {}),
      };
    case 'list':
      return { type: 'list', ...(m.header ? { header: m.header } : {}), body: m.text ?? '', footer, button: m.actionLabel ?? 'Options', sections: [{ rows: m.buttons }] };
    case 'reply':
      return { type: 'buttons', header, body: m.text ?? '', footer, buttons: m.buttons };
    case 'flow':
      return { type: 'flow', header, body: m.text ?? '', footer, flowId: m.flowId, cta: m.actionLabel ?? 'Open', flowToken: sessionId, mode: 'published' };
    default:
      return null;
  }
}
