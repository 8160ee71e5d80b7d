/** Meta's webhook signature: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`. */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Constant-time check of the header against the raw bytes; any malformed header is simply a mismatch. */
export function verifyWebhookSignature(appSecret: string, rawBody: Buffer, header: unknown): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
