/** A refusal of a number's credentials names the service that refused them: Meta, or the local sandbox. */
import { describe, expect, it } from 'vitest';
import { credentialRefusal, graphTarget } from '../../src/server/whatsapp/graph-target';

describe('graphTarget', () => {
  it("is Meta only for Meta's Graph API", () => {
    expect(graphTarget('https://graph.facebook.com/v23.0')).toEqual({ url: 'https://graph.facebook.com/v23.0', sandbox: false });
    expect(graphTarget('http://127.0.0.1:4010/v23.0').sandbox).toBe(true);
    expect(graphTarget('https://graph.facebook.com.evil.test/v23.0').sandbox).toBe(true);
    expect(graphTarget('not a url').sandbox).toBe(true);
  });

  it('says Meta refused, or that the sandbox and not Meta checked the credentials', () => {
    const meta = graphTarget('https://graph.facebook.com/v23.0');
    expect(credentialRefusal(meta, 'token')).toBe('WhatsApp (Meta) refused the token: check the system user permanent token');
    expect(credentialRefusal(meta, 'phoneNumberId')).toBe('WhatsApp (Meta) does not know this Phone Number ID for this token');
    const sandbox = credentialRefusal(graphTarget('http://127.0.0.1:4010/v23.0'), 'token');
    expect(sandbox).toMatch(/^The local WhatsApp sandbox at http:\/\/127\.0\.0\.1:4010\/v23\.0, not Meta, checked these credentials and refused the token\./);
    expect(sandbox).toContain('docs/going-live.md');
  });
});
