// The Graph client against a real sandbox over HTTP: every message kind is accepted, and every refusal Meta
// makes comes back as a GraphApiError with the right code, kind and a sentence a user understands.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidPhoneNumber } from 'libphonenumber-js/mobile';
import { type Sandbox, sandboxAccount, startSandbox } from '../../src/sandbox';
import {
  type GraphClient,
  type GraphCredentials,
  type OutboundMessage,
  GraphApiError,
  createGraphClient,
  messages,
  templateComponents,
} from '../../src/server/whatsapp/graph-client';

const customer = '+14155550123';
let sandbox: Sandbox;
let client: GraphClient;
let creds: GraphCredentials;

beforeAll(async () => {
  sandbox = await startSandbox({ appSecret: 'test-secret', templateReviewDelayMs: 500, statusDelayMs: 0 });
  client = createGraphClient({ baseUrl: sandbox.baseUrl, retries: 0, timeoutMs: 5000 });
  creds = { token: sandboxAccount.token, phoneNumberId: sandboxAccount.phoneNumberId, wabaAccountId: sandboxAccount.wabaAccountId, appId: sandboxAccount.appId };
  await sandbox.customers.say(customer, 'Hi, I have a question', { name: 'Grace Hopper' });
});
afterAll(() => sandbox?.close());

/** The GraphApiError a call fails with (fails the test if it succeeds). */
async function refusal(p: Promise<unknown>): Promise<GraphApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(GraphApiError);
    return err as GraphApiError;
  }
  throw new Error('expected the Graph API to refuse the call');
}

async function uploadedImageId(): Promise<string> {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  return (await client.uploadMedia(creds, { data: png, fileName: 'dot.png', mimeType: 'image/png' })).id;
}

describe('sandbox account', () => {
  it('is a valid mobile number the account form accepts, and the lookup confirms the credentials', async () => {
    expect(isValidPhoneNumber(sandboxAccount.phoneNumber)).toBe(true);
    const info = await client.getPhoneNumber(creds);
    expect(info.id).toBe(sandboxAccount.phoneNumberId);
    expect(info.display_phone_number.replace(/\D/g, '')).toBe(sandboxAccount.phoneNumber.replace(/\D/g, ''));
    expect(info.verified_name).toBe(sandboxAccount.verifiedName);
  });

  it('numbers added for other workspaces are valid mobile numbers too, with their own token', async () => {
    const other = sandbox.addAccount();
    expect(isValidPhoneNumber(other.phoneNumber)).toBe(true);
    const otherCreds = { token: other.token, phoneNumberId: other.phoneNumberId, wabaAccountId: other.wabaAccountId, appId: other.appId };
    expect((await client.getPhoneNumber(otherCreds)).id).toBe(other.phoneNumberId);
    // One account's token cannot act for another's number.
    const err = await refusal(client.getPhoneNumber({ ...otherCreds, token: sandboxAccount.token }));
    expect(err.code).toBe(100);
    expect(err.httpStatus).toBe(400);
  });

  it('accepts any vX.Y version prefix', async () => {
    const v = createGraphClient({ baseUrl: `${sandbox.origin}/v21.0`, retries: 0 });
    expect((await v.getPhoneNumber(creds)).id).toBe(sandboxAccount.phoneNumberId);
    const bad = createGraphClient({ baseUrl: `${sandbox.origin}/latest`, retries: 0 });
    expect((await refusal(bad.getPhoneNumber(creds))).code).toBe(100);
  });
});

describe('sending every message kind inside the window', () => {
  it('text, with the recipient normalised to its wa_id', async () => {
    const res = await client.sendMessage(creds, customer, messages.text('Hello Grace, how can I help?', { previewUrl: false }));
    expect(res.wamid).toMatch(/^wamid\./);
    expect(res.waId).toBe('14155550123');
    expect(res.messageStatus).toBeUndefined();
    const sent = sandbox.sent.at(-1)!;
    expect(sent.id).toBe(res.wamid);
    expect(sent.body).toMatchObject({ messaging_product: 'whatsapp', to: customer, type: 'text', text: { body: 'Hello Grace, how can I help?' } });
  });

  it('image, video and document by uploaded id or link, with caption and filename', async () => {
    const imageId = await uploadedImageId();
    const sends: OutboundMessage[] = [
      messages.image({ id: imageId }, { caption: 'Your receipt' }),
      messages.image({ link: 'https://example.com/a.png' }),
      messages.video({ link: 'https://example.com/a.mp4' }, { caption: 'How to' }),
      messages.document({ link: 'https://example.com/invoice.pdf' }, { filename: 'invoice.pdf', caption: 'Invoice' }),
      messages.media('audio', { link: 'https://example.com/a.ogg' }, { caption: 'dropped for audio' }),
      messages.sticker({ link: 'https://example.com/s.webp' }),
      messages.video({ id: imageId }),
    ];
    for (const m of sends) await client.sendMessage(creds, customer, m);
    const last = sandbox.sent.slice(-7).map((s) => s.body);
    expect(last[5]).toMatchObject({ type: 'sticker', sticker: { link: 'https://example.com/s.webp' } });
    expect(last[0]).toMatchObject({ type: 'image', image: { id: imageId, caption: 'Your receipt' } });
    expect(last[3]).toMatchObject({ type: 'document', document: { link: 'https://example.com/invoice.pdf', filename: 'invoice.pdf' } });
    expect(last[4]).toEqual(expect.objectContaining({ type: 'audio', audio: { link: 'https://example.com/a.ogg' } }));
  });

  it('reply buttons, list, flow, and a quote-reply with biz_opaque_callback_data', async () => {
    const buttons = messages.buttons({ body: 'Was this helpful?', footer: 'Parley', buttons: [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'No' }] });
    const list = messages.list({
      header: 'Our menu',
      body: 'Pick a topic',
      button: 'Topics',
      sections: [
        { title: 'Orders', rows: [{ id: 'track', title: 'Track an order', description: 'Where is it?' }, { id: 'return', title: 'Return' }] },
        { title: 'Account', rows: [{ id: 'plan', title: 'Change plan' }] },
      ],
    });
    const flowId = sandbox.flows.find((f) => f.wabaId === sandboxAccount.wabaAccountId && f.status === 'PUBLISHED')!.id;
    const flow = messages.flow({ body: 'Book a visit', flowId, cta: 'Book now', flowToken: 'conv-1', screen: 'WELCOME', data: { k: 'v' } });
    const inbound = sandbox.received.at(-1)!.id;
    for (const m of [buttons, list, flow]) await client.sendMessage(creds, customer, m, { replyTo: inbound, bizOpaqueCallbackData: 'msg-42' });
    const [b, l, f] = sandbox.sent.slice(-3).map((s) => s.body);
    expect(b).toMatchObject({ context: { message_id: inbound }, biz_opaque_callback_data: 'msg-42', interactive: { type: 'button' } });
    expect(l).toMatchObject({ interactive: { type: 'list', action: { button: 'Topics' } } });
    expect(f).toMatchObject({ interactive: { type: 'flow', action: { parameters: { flow_id: flowId, flow_action: 'navigate', flow_action_payload: { screen: 'WELCOME' } } } } });
  });

  it('a DRAFT flow only with mode draft', async () => {
    const draft = sandbox.flows.find((f) => f.wabaId === sandboxAccount.wabaAccountId && f.status === 'DRAFT')!;
    const err = await refusal(client.sendMessage(creds, customer, messages.flow({ body: 'Tell us', flowId: draft.id, cta: 'Start', screen: 'A' })));
    expect(err.kind).toBe('invalid_request');
    expect(err.details).toContain('DRAFT');
    await client.sendMessage(creds, customer, messages.flow({ body: 'Tell us', flowId: draft.id, cta: 'Start', screen: 'A', mode: 'draft' }));
  });

  it('marks an inbound message read, and refuses an id it never received', async () => {
    await client.markRead(creds, sandbox.received.at(-1)!.id, { typingIndicator: true });
    expect((await refusal(client.markRead(creds, 'wamid.unknown'))).kind).toBe('invalid_request');
  });
});

describe('refusals, as Meta makes them', () => {
  const cases: { name: string; message: () => OutboundMessage; code: number }[] = [
    { name: 'text over 4096 characters', message: () => messages.text('x'.repeat(4097)), code: 131009 },
    { name: 'empty text', message: () => messages.text(''), code: 131009 },
    { name: 'caption over 1024 characters', message: () => messages.image({ link: 'https://example.com/a.png' }, { caption: 'c'.repeat(1025) }), code: 131009 },
    {
      name: 'media with both id and link',
      message: () => ({ type: 'image', image: { id: '1', link: 'https://example.com/a.png' } }) as unknown as OutboundMessage,
      code: 100,
    },
    { name: 'media with neither id nor link', message: () => ({ type: 'image', image: {} }) as unknown as OutboundMessage, code: 131008 },
    { name: 'an unknown media id', message: () => messages.image({ id: '999999' }), code: 131009 },
    { name: 'list header over 60', message: () => listWith({ header: 'h'.repeat(61) }), code: 131009 },
    { name: 'list body over 4096', message: () => listWith({ body: 'b'.repeat(4097) }), code: 131009 },
    { name: 'list footer over 60', message: () => listWith({ footer: 'f'.repeat(61) }), code: 131009 },
    { name: 'list button over 20', message: () => listWith({ button: 'b'.repeat(21) }), code: 131009 },
    { name: 'list row title over 24', message: () => listWith({ rows: [{ id: 'a', title: 't'.repeat(25) }] }), code: 131009 },
    {
      name: 'list with 11 rows across sections',
      message: () =>
        messages.list({
          body: 'b',
          button: 'Open',
          sections: [
            { title: 'A', rows: Array.from({ length: 6 }, (_, i) => ({ id: `a${i}`, title: `A ${i}` })) },
            { title: 'B', rows: Array.from({ length: 5 }, (_, i) => ({ id: `b${i}`, title: `B ${i}` })) },
          ],
        }),
      code: 131009,
    },
    { name: 'no reply buttons', message: () => messages.buttons({ body: 'b', buttons: [] }), code: 131009 },
    {
      name: 'four reply buttons',
      message: () => messages.buttons({ body: 'b', buttons: ['a', 'b', 'c', 'd'].map((id) => ({ id, title: id })) }),
      code: 131009,
    },
    { name: 'duplicate button titles', message: () => messages.buttons({ body: 'b', buttons: [{ id: '1', title: 'Yes' }, { id: '2', title: 'Yes' }] }), code: 131009 },
    { name: 'button title over 20', message: () => messages.buttons({ body: 'b', buttons: [{ id: '1', title: 't'.repeat(21) }] }), code: 131009 },
    { name: 'flow_cta over 20', message: () => messages.flow({ body: 'b', flowName: 'Book an appointment', cta: 'c'.repeat(21), screen: 'A' }), code: 131009 },
    { name: 'an unknown message type', message: () => ({ type: 'hologram', hologram: {} }) as unknown as OutboundMessage, code: 100 },
  ];

  function listWith(o: { header?: string; body?: string; footer?: string; button?: string; rows?: { id: string; title: string }[] }) {
    return messages.list({ header: o.header, body: o.body ?? 'Pick one', footer: o.footer, button: o.button ?? 'Open', sections: [{ rows: o.rows ?? [{ id: 'a', title: 'A' }] }] });
  }

  it.each(cases)('$name -> 400 code $code, invalid_request', async ({ message, code }) => {
    const before = sandbox.sent.length;
    const err = await refusal(client.sendMessage(creds, customer, message()));
    expect(err.httpStatus).toBe(400);
    expect(err.code).toBe(code);
    expect(err.kind).toBe('invalid_request');
    expect(err.userMessage).toMatch(/^WhatsApp refused the request: /);
    expect(err.fbtraceId).toBeTruthy();
    expect(sandbox.sent.length).toBe(before);
  });

  it('a wrong token -> 401 code 190, and no token at all -> 401 code 190', async () => {
    const err = await refusal(client.sendMessage({ ...creds, token: 'EAAnot-a-real-token' }, customer, messages.text('hi')));
    expect([err.httpStatus, err.code, err.kind]).toEqual([401, 190, 'invalid_token']);
    expect(err.userMessage).toBe('The WhatsApp access token is invalid or expired. Update the token of this WhatsApp account.');
    // The token never appears in what the error carries.
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain('EAAnot-a-real-token');

    const res = await fetch(`${sandbox.baseUrl}/${sandboxAccount.phoneNumberId}/messages`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(190);
  });

  it('an expired token -> 190 subcode 463 with its own sentence', async () => {
    const extra = 'EAAexpiring-token';
    sandbox.addToken(extra);
    expect((await client.getPhoneNumber({ ...creds, token: extra })).id).toBe(creds.phoneNumberId);
    sandbox.expireToken(extra);
    const err = await refusal(client.getPhoneNumber({ ...creds, token: extra }));
    expect([err.code, err.subcode, err.kind]).toEqual([190, 463, 'invalid_token']);
    expect(err.userMessage).toContain('expired');
  });

  it('outside the 24-hour window: free-form refused with 131047, an approved template still goes', async () => {
    const stranger = '+16505550199';
    const err = await refusal(client.sendMessage(creds, stranger, messages.text('Hello?')));
    expect([err.httpStatus, err.code, err.kind]).toEqual([400, 131047, 'outside_window']);
    expect(err.userMessage).toBe('More than 24 hours have passed since the customer last wrote; send an approved template instead.');
    const res = await client.sendMessage(creds, stranger, messages.template('hello_world', 'en_US'));
    expect(res.messageStatus).toBe('accepted');

    // The window opens when the customer writes, and closes 24 hours later.
    await sandbox.customers.say(stranger, 'Hi!');
    await client.sendMessage(creds, stranger, messages.text('Welcome!'));
    sandbox.advanceTime(24 * 3_600_000 + 1000);
    expect((await refusal(client.sendMessage(creds, customer, messages.text('Still there?')))).code).toBe(131047);
    await sandbox.customers.say(customer, 'Yes, still here');
    await sandbox.customers.say(stranger, 'me too');
  });

  it('the window belongs to one business number: writing to one does not open another', async () => {
    const other = sandbox.addAccount();
    const otherCreds = { token: other.token, phoneNumberId: other.phoneNumberId, wabaAccountId: other.wabaAccountId, appId: other.appId };
    await sandbox.customers.say('+14155550177', 'hello first number');
    await client.sendMessage(creds, '+14155550177', messages.text('hi from the first number'));
    expect((await refusal(client.sendMessage(otherCreds, '+14155550177', messages.text('hi from the second')))).code).toBe(131047);
    await sandbox.customers.say('+14155550177', 'hello second number', { phoneNumberId: other.phoneNumberId });
    await client.sendMessage(otherCreds, '+14155550177', messages.text('now it may'));
  });

  it('over the throughput of the number -> 130429, rate_limited', async () => {
    const limited = await startSandbox({ appSecret: 's', throughputPerSecond: 3, statusDelayMs: 0 });
    try {
      const c = createGraphClient({ baseUrl: limited.baseUrl, retries: 0 });
      await limited.customers.say(customer, 'hi');
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => c.sendMessage(creds, customer, messages.text(`burst ${i}`))));
      const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as GraphApiError);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(refused).toHaveLength(3);
      for (const e of refused) expect([e.httpStatus, e.code, e.kind]).toEqual([400, 130429, 'rate_limited']);
      // The bucket refills: a second later the number can send again.
      await new Promise((r) => setTimeout(r, 1100));
      await c.sendMessage(creds, customer, messages.text('after the pause'));
    } finally {
      await limited.close();
    }
  });
});

describe('templates', () => {
  const body = {
    name: 'order_update',
    language: 'en_US',
    category: 'UTILITY' as const,
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A123'] } },
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Alex', 'A123']] } },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop' }] },
    ],
  };

  it('create answers PENDING, review approves it, then it sends with the right parameters only', async () => {
    const created = await client.createTemplate(creds, body);
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/), status: 'PENDING', category: 'UTILITY' });

    // Not approved yet: 132001.
    const pending = await refusal(client.sendMessage(creds, customer, messages.template('order_update', 'en_US')));
    expect([pending.code, pending.kind]).toEqual([132001, 'template_rejected']);

    await sandbox.settle();
    expect(sandbox.templates.find((t) => t.id === created.id)!.status).toBe('APPROVED');

    const good = messages.template('order_update', 'en_US', templateComponents({ header: { type: 'text', text: 'A123' }, body: ['Alex', 'A123'] }));
    expect((await client.sendMessage(creds, customer, good)).messageStatus).toBe('accepted');

    const fewer = messages.template('order_update', 'en_US', templateComponents({ header: { type: 'text', text: 'A123' }, body: ['Alex'] }));
    const mismatch = await refusal(client.sendMessage(creds, customer, fewer));
    expect([mismatch.code, mismatch.kind]).toEqual([132000, 'invalid_request']);
    expect(mismatch.userMessage).toBe("The number of template variables doesn't match the template; fill in every variable.");

    const otherLanguage = await refusal(client.sendMessage(creds, customer, messages.template('order_update', 'fr', good.type === 'template' ? good.template.components : [])));
    expect(otherLanguage.code).toBe(132001);
    const unknown = await refusal(client.sendMessage(creds, customer, messages.template('no_such_template', 'en_US')));
    expect(unknown.code).toBe(132001);
    expect(unknown.userMessage).toBe('The template does not exist in this language or is not approved yet.');
  });

  it('a name containing "reject" is REJECTED by review, and sending it is refused', async () => {
    await client.createTemplate(creds, { ...body, name: 'please_reject_me' });
    await sandbox.settle();
    const t = sandbox.templates.find((x) => x.name === 'please_reject_me')!;
    expect([t.status, t.rejectedReason]).toEqual(['REJECTED', 'INVALID_FORMAT']);
    expect((await refusal(client.sendMessage(creds, customer, messages.template('please_reject_me', 'en_US')))).code).toBe(132001);
  });

  it('paused and disabled templates answer 132015 and 132016', async () => {
    await client.createTemplate(creds, { ...body, name: 'soon_paused', components: [{ type: 'BODY', text: 'Hello' }] });
    await sandbox.settle();
    await sandbox.setTemplateStatus('soon_paused', 'PAUSED');
    expect((await refusal(client.sendMessage(creds, customer, messages.template('soon_paused', 'en_US')))).code).toBe(132015);
    await sandbox.setTemplateStatus('soon_paused', 'DISABLED');
    const disabled = await refusal(client.sendMessage(creds, customer, messages.template('soon_paused', 'en_US')));
    expect([disabled.code, disabled.kind]).toEqual([132016, 'template_rejected']);
  });

  it('refuses invalid creations: bad name, missing examples, a duplicate', async () => {
    expect((await refusal(client.createTemplate(creds, { ...body, name: 'Order Update' }))).code).toBe(100);
    const noExample = { ...body, name: 'no_example', components: [{ type: 'BODY', text: 'Hi {{1}}' }] };
    expect((await refusal(client.createTemplate(creds, noExample))).code).toBe(131009);
    const dup = await refusal(client.createTemplate(creds, body));
    expect([dup.code, dup.subcode]).toEqual([100, 2388024]);
  });

  it('lists every template across pages, and deletes by name or by name and id', async () => {
    for (let i = 0; i < 5; i++) await client.createTemplate(creds, { ...body, name: `bulk_${i}`, components: [{ type: 'BODY', text: `Bulk ${i}` }] });
    const all = await client.listTemplates(creds, { pageSize: 2 });
    const names = all.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['hello_world', 'order_update', 'bulk_0', 'bulk_4']));
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    expect(all.length).toBe(sandbox.templates.filter((t) => t.wabaId === sandboxAccount.wabaAccountId).length);

    await client.createTemplate(creds, { ...body, name: 'bulk_0', language: 'es', components: [{ type: 'BODY', text: 'Hola' }] });
    const es = sandbox.templates.find((t) => t.name === 'bulk_0' && t.language === 'es')!;
    await client.deleteTemplate(creds, 'bulk_0', es.id);
    expect(sandbox.templates.filter((t) => t.name === 'bulk_0').map((t) => t.language)).toEqual(['en_US']);
    await client.deleteTemplate(creds, 'bulk_1');
    expect(sandbox.templates.some((t) => t.name === 'bulk_1')).toBe(false);
    expect((await refusal(client.deleteTemplate(creds, 'bulk_1'))).code).toBe(100);
  });
});

describe('media, resumable upload and flows', () => {
  it('uploads media, resolves its URL, and downloads it only with the token and before it expires', async () => {
    const data = Buffer.from('%PDF-1.4 a tiny pdf');
    const { id } = await client.uploadMedia(creds, { data, fileName: 'a.pdf', mimeType: 'application/pdf' });
    const info = await client.getMedia(creds, id);
    expect(info).toMatchObject({ id, mime_type: 'application/pdf', file_size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    const downloaded = await client.downloadMedia(creds, id);
    expect(downloaded.data.equals(data)).toBe(true);

    expect((await fetch(info.url)).status).toBe(401);
    sandbox.advanceTime(5 * 60_000 + 1000);
    expect((await fetch(info.url, { headers: { authorization: `Bearer ${creds.token}` } })).status).toBe(404);
    // A fresh lookup gives a fresh URL.
    expect((await client.downloadMedia(creds, id)).data.equals(data)).toBe(true);

    await client.deleteMedia(creds, id);
    expect((await refusal(client.getMedia(creds, id))).code).toBe(100);
  });

  it('refuses a media type WhatsApp does not take', async () => {
    const err = await refusal(client.uploadMedia(creds, { data: Buffer.from('MZ'), fileName: 'x.exe', mimeType: 'application/x-msdownload' }));
    expect([err.code, err.kind]).toEqual([100, 'invalid_request']);
  });

  it('resumable upload gives an `h` handle a media header template accepts', async () => {
    const data = Buffer.alloc(50_000, 7);
    const { handle } = await client.resumableUpload(creds, { data, fileName: 'header.png', mimeType: 'image/png' });
    expect(handle).toMatch(/^4::/);
    expect(sandbox.uploadedFile(handle)!.equals(data)).toBe(true);
    const created = await client.createTemplate(creds, {
      name: 'with_image_header',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } }, { type: 'BODY', text: 'New arrivals' }],
    });
    expect(created.status).toBe('PENDING');
    const forged = await refusal(
      client.createTemplate(creds, {
        name: 'forged_handle',
        language: 'en_US',
        category: 'MARKETING',
        components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::bm9wZQ=='] } }, { type: 'BODY', text: 'x' }],
      }),
    );
    expect(forged.code).toBe(131009);
  });

  it('resumes an upload the connection dropped, from the offset the session reports', async () => {
    const data = Buffer.from(Array.from({ length: 40_000 }, (_, i) => i % 251));
    sandbox.interruptNextUpload(12_345);
    const c = createGraphClient({ baseUrl: sandbox.baseUrl, retries: 2, backoffBaseMs: 5 });
    const { handle } = await c.resumableUpload(creds, { data, fileName: 'clip.mp4', mimeType: 'video/mp4' });
    expect(sandbox.uploadedFile(handle)!.equals(data)).toBe(true);
  });

  it('lists the sample flows of the WABA: one PUBLISHED, one DRAFT', async () => {
    const flows = await client.listFlows(creds);
    expect(flows.map((f) => f.status).sort()).toEqual(['DRAFT', 'PUBLISHED']);
    for (const f of flows) expect(f).toEqual({ id: expect.any(String), name: expect.any(String), status: f.status, categories: expect.any(Array), validation_errors: [] });
  });
});
