/**
 * Meta's webhook signature as a unit (a fast test per mutant for the mutation score of the webhook
 * verification): X-Hub-Signature-256 is `sha256=` and the hex HMAC-SHA256 of the raw body under the app secret.
 * The end-to-end checks through the route are in webhooks.test.ts.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/server/whatsapp/signature';
import { signWebhookBody } from '../support/sandbox-webhooks';

const secret = 'app-secret-for-unit';
const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
const hmacHex = createHmac('sha256', secret).update(body).digest('hex');

describe('signWebhookBody', () => {
  it('is sha256= and the hex HMAC-SHA256 of the raw bytes under the app secret', () => {
    expect(signWebhookBody(secret, body)).toBe(`sha256=${hmacHex}`);
    expect(signWebhookBody(secret, body.toString())).toBe(`sha256=${hmacHex}`);
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts the signature of these exact bytes, in upper or lower case hex', () => {
    expect(verifyWebhookSignature(secret, body, `sha256=${hmacHex}`)).toBe(true);
    expect(verifyWebhookSignature(secret, body, `sha256=${hmacHex.toUpperCase()}`)).toBe(true);
  });

  it('refuses another secret, other bytes, and a flipped digit', () => {
    expect(verifyWebhookSignature('other-secret', body, `sha256=${hmacHex}`)).toBe(false);
    expect(verifyWebhookSignature(secret, Buffer.concat([body, Buffer.from(' ')]), `sha256=${hmacHex}`)).toBe(false);
    const flipped = hmacHex.slice(0, -1) + (hmacHex.endsWith('0') ? '1' : '0');
    expect(verifyWebhookSignature(secret, body, `sha256=${flipped}`)).toBe(false);
  });

  it('refuses every malformed header without throwing', () => {
    for (const header of [
      undefined,
      null,
      42,
      ['sha256=' + hmacHex],
      '',
      hmacHex,
      `sha1=${hmacHex}`,
      `SHA256=${hmacHex}`,
      `sha256=${hmacHex}00`,
      `sha256=${hmacHex.slice(2)}`,
      `sha256=${hmacHex.slice(0, -1)}g`,
      ` sha256=${hmacHex}`,
      `sha256=${hmacHex} `,
      `xsha256=${hmacHex}`,
      `sha256=${hmacHex}\n`,
      // Junk before the prefix, even junk that is itself the valid digest followed by a second "sha256=<hex>".
      `1234567${hmacHex}sha256=${'0'.repeat(64)}`,
    ]) {
      expect(verifyWebhookSignature(secret, body, header), JSON.stringify(header)).toBe(false);
    }
  });
});
