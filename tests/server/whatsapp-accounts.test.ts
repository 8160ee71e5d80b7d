/** Connecting WhatsApp numbers: credentials checked against the sandbox Graph API, tokens sealed at rest. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { createSecretBox } from '../../src/server/crypto/secrets';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { testSecretsKey } from '../support/sandbox-webhooks';

let ta: TestApp;
let admin: Session;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Numbers Inc');
});
afterAll(async () => {
  await ta?.close();
});

function form(number: { phoneNumber: string; wabaAccountId: string; appId: string; phoneNumberId: string; token: string }, workspaceId: string) {
  return {
    phoneNumber: number.phoneNumber,
    wabaAccountId: number.wabaAccountId,
    appId: number.appId,
    phoneNumberId: number.phoneNumberId,
    token: number.token,
    workspaceId,
  };
}

describe('POST /whatsapp', () => {
  it('connects a number whose token WhatsApp accepts; the token is sealed at rest and masked in answers', async () => {
    const number = ta.sandbox.addAccount();
    const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: form(number, admin.workspaceId) });
    expect(res.statusCode).toBe(201);
    const account = res.json();
    expect(account).toMatchObject({
      phoneNumber: number.phoneNumber,
      phoneNumberId: number.phoneNumberId,
      wabaAccountId: number.wabaAccountId,
      appId: number.appId,
      workspaceId: admin.workspaceId,
      token: `••••••••${number.token.slice(-4)}`,
    });
    expect(res.body).not.toContain(number.token);

    const [row] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, account.id));
    expect(row.tokenCiphertext).not.toContain(number.token);
    expect(row.tokenCiphertext).toMatch(/^v1\./);
    // It opens with the key and only for its own phone number id.
    const box = createSecretBox(testSecretsKey)!;
    expect(box.open(row.tokenCiphertext, number.phoneNumberId)).toBe(number.token);
    expect(() => box.open(row.tokenCiphertext, 'another-number')).toThrow();

    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/whatsapp`, { token: admin.token });
    expect(list.body).not.toContain(number.token);
    expect(list.json().items.map((a: { id: string }) => a.id)).toContain(account.id);
  });

  it('refuses a token an HTTP header cannot carry (a pasted direction mark, a space) with 400, storing nothing', async () => {
    const number = ta.sandbox.addAccount();
    for (const token of ['\u202Eevil\u202C', 'EAA two words', 'EAAé']) {
      const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...form(number, admin.workspaceId), token } });
      expect(res.statusCode, token).toBe(400);
      expect(res.json().message).toEqual(['token: An access token is letters, digits and punctuation, without spaces']);
    }
    expect(await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.phoneNumberId, number.phoneNumberId))).toHaveLength(0);
  });

  it('lets a workspace connect several numbers', async () => {
    const a = ta.sandbox.addAccount();
    const b = ta.sandbox.addAccount();
    for (const n of [a, b]) {
      expect((await ta.call('POST', '/whatsapp', { token: admin.token, body: form(n, admin.workspaceId) })).statusCode).toBe(201);
    }
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/whatsapp`, { token: admin.token });
    const ids = list.json().items.map((x: { phoneNumberId: string }) => x.phoneNumberId);
    expect(ids).toEqual(expect.arrayContaining([a.phoneNumberId, b.phoneNumberId]));
  });

  it('refuses a token WhatsApp does not accept, says the sandbox checked it, and stores nothing', async () => {
    const number = ta.sandbox.addAccount();
    const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...form(number, admin.workspaceId), token: 'EAAwrong-token' } });
    // 409: the client shows a 400 only as 'Bad Request Exception'; this answer must be read.
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^The local WhatsApp sandbox at http:\/\/127\.0\.0\.1:\d+\S*, not Meta, checked these credentials and refused the token\. /);
    expect(res.json().message).toContain('docs/going-live.md');
    const rows = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.phoneNumberId, number.phoneNumberId));
    expect(rows).toHaveLength(0);
  });

  it('refuses a phone number id the token cannot see, and a number that is not behind that id', async () => {
    const number = ta.sandbox.addAccount();
    const other = ta.sandbox.addAccount();
    const unknownId = await ta.call('POST', '/whatsapp', {
      token: admin.token,
      body: { ...form(number, admin.workspaceId), phoneNumberId: other.phoneNumberId },
    });
    expect(unknownId.statusCode).toBe(409);
    expect(unknownId.json().message).toContain('not Meta, checked these credentials and does not know this Phone Number ID for this token.');

    const wrongNumber = await ta.call('POST', '/whatsapp', {
      token: admin.token,
      body: { ...form(number, admin.workspaceId), phoneNumber: '+14155552671' },
    });
    expect(wrongNumber.statusCode).toBe(409);
    expect(wrongNumber.json().message).toContain('belongs to');
  });

  it('answers 409 for a number connected already, in this workspace or another', async () => {
    const number = ta.sandbox.addAccount();
    expect((await ta.call('POST', '/whatsapp', { token: admin.token, body: form(number, admin.workspaceId) })).statusCode).toBe(201);
    const again = await ta.call('POST', '/whatsapp', { token: admin.token, body: form(number, admin.workspaceId) });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ statusCode: 409, message: 'This WhatsApp number is already connected', error: 'Conflict' });
    const other = await ta.newAdmin('Other Shop');
    const elsewhere = await ta.call('POST', '/whatsapp', { token: other.token, body: form(number, other.workspaceId) });
    expect(elsewhere.statusCode).toBe(409);
  });

  it("validates the form with the spec's messages", async () => {
    const res = await ta.call('POST', '/whatsapp', {
      token: admin.token,
      body: { phoneNumber: '12', wabaAccountId: '', appId: '', phoneNumberId: '', token: '', workspaceId: admin.workspaceId },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(
      expect.arrayContaining([
        'Enter a valid phone number',
        'Please enter your WhatsApp Business Account ID',
        'Please enter your App ID',
        'Please enter your Phone Number ID',
        'Please enter your system user permanent token',
      ]),
    );
  });
});

describe('PATCH /whatsapp/{id}', () => {
  it('replaces an expired token with one WhatsApp accepts, and refuses one it does not', async () => {
    const number = ta.sandbox.addAccount();
    const created = await ta.call('POST', '/whatsapp', { token: admin.token, body: form(number, admin.workspaceId) });
    const id = created.json().id;
    ta.sandbox.expireToken(number.token);
    const flows = await ta.call('GET', `/whatsapp-flow/${id}`, { token: admin.token });
    expect(flows.statusCode).toBe(409);

    const refused = await ta.call('PATCH', `/whatsapp/${id}`, { token: admin.token, body: { token: 'EAAnot-accepted' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('not Meta, checked these credentials and refused the token.');

    const fresh = 'EAAfresh-rotated-token-9876';
    ta.sandbox.addToken(fresh);
    const res = await ta.call('PATCH', `/whatsapp/${id}`, { token: admin.token, body: { token: fresh } });
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toBe('••••••••9876');
    expect(res.body).not.toContain(fresh);
    expect((await ta.call('GET', `/whatsapp-flow/${id}`, { token: admin.token })).statusCode).toBe(200);
  });
});

describe('without SECRETS_KEY', () => {
  it('refuses to store a token with 503 and a clear message', async () => {
    const bare = await buildTestApp({ secretsKey: undefined });
    try {
      const owner = await bare.newAdmin('Keyless Ltd');
      const number = bare.sandbox.addAccount();
      const res = await bare.call('POST', '/whatsapp', { token: owner.token, body: form(number, owner.workspaceId) });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ statusCode: 503, message: 'SECRETS_KEY is not configured', error: 'Service Unavailable' });
      expect(await bare.db.select().from(t.whatsappAccounts)).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});

describe('the secret box', () => {
  it('uses a fresh IV per seal and refuses tampered ciphertext or another key', () => {
    const box = createSecretBox('key-one')!;
    const a = box.seal('EAAtoken1234', 'ctx');
    const b = box.seal('EAAtoken1234', 'ctx');
    expect(a).not.toBe(b);
    expect(box.open(a, 'ctx')).toBe('EAAtoken1234');
    const parts = a.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'ctx')).toThrow();
    expect(() => createSecretBox('key-two')!.open(a, 'ctx')).toThrow();
    expect(createSecretBox(undefined)).toBeNull();
  });
});
