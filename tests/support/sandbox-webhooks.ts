/** Builds and signs WhatsApp webhook deliveries as Meta sends them (reference section 3). */
import { randomUUID } from 'node:crypto';
import { sign } from '../../src/sandbox/webhooks';
import type { TestApp } from './server';

export const testAppSecret = 'test-app-secret-0123456789';
export const testVerifyToken = 'test-verify-token';
export const testSecretsKey = 'test-secrets-key-not-for-production';

/** Meta's signature of a delivery (`sha256=` and the hex HMAC-SHA256 of the raw body): the sandbox's, as Meta
 * signs; the server only verifies. */
export const signWebhookBody = (appSecret: string, rawBody: Buffer | string) => sign(rawBody.toString(), appSecret);

export const newWamid = () => `wamid.${randomUUID().replace(/-/g, '')}`;
export const nowSeconds = () => String(Math.floor(Date.now() / 1000));

export function messagesChange(phoneNumberId: string, value: Record<string, unknown>, wabaId = '102290129340398') {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '16505550100', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** An inbound message from `from` (digits, as Meta writes wa_id) with its profile name. */
export function inbound(phoneNumberId: string, from: string, message: Record<string, unknown>, name = 'Sheena Nelson') {
  return messagesChange(phoneNumberId, {
    contacts: [{ profile: { name }, wa_id: from }],
    messages: [{ from, id: newWamid(), timestamp: nowSeconds(), ...message }],
  });
}

export function statusUpdate(phoneNumberId: string, wamid: string, status: string, extra: Record<string, unknown> = {}) {
  return messagesChange(phoneNumberId, {
    statuses: [{ id: wamid, status, timestamp: nowSeconds(), recipient_id: '16505551234', ...extra }],
  });
}

/** A template review; `time` (unix seconds) is when Meta triggered it, as Meta's entries carry (omitted if not given). */
export function templateStatus(wabaId: string, templateId: string, event: string, name = 'order_update', time?: number) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        ...(time === undefined ? {} : { time }),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event,
              message_template_id: Number(templateId),
              message_template_name: name,
              message_template_language: 'en_US',
              reason: event === 'REJECTED' ? 'INVALID_FORMAT' : 'NONE',
            },
          },
        ],
      },
    ],
  };
}

/** POSTs a delivery signed with the app secret (or a given signature), exactly as bytes. */
export function postWebhook(ta: TestApp, payload: unknown, opts: { secret?: string; signature?: string | null } = {}) {
  const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const signature = opts.signature === undefined ? signWebhookBody(opts.secret ?? testAppSecret, raw) : opts.signature;
  return ta.app.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
    payload: raw,
  });
}
