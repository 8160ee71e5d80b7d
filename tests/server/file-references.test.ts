/**
 * Every file reference a request carries resolves to a file of the caller's own workspace, or is an external
 * address handed on unsigned: a member of workspace B can never get a file of workspace A signed.
 * One test per route that takes a file reference.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace } from '../support/fixtures';
import { multipartBody } from '../support/multipart';

let ta: TestApp;
let adminA: Session;
let adminB: Session;
let a: Seeded;
let b: Seeded;
/** A file of workspace A (bot media), its address as A's members see it. */
let fileOfA: string;
let csvOfA: string;
/** A media-header template of B, approved at the sandbox, and B's own header sample. */
let mediaTemplateOfB: string;
let assetOfB: string;
let botMediaOfB: string;

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

async function upload(url: string, token: string, file: Parameters<typeof multipartBody>[0]) {
  const form = multipartBody(file);
  return ta.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, ...form.headers }, payload: form.payload });
}

/** The same address spelled differently: upper-case scheme and host, and a dot segment that resolves to it. */
function otherSpellings(url: string): string[] {
  const u = new URL(url);
  return [url, `HTTP://PARLEY.TEST${u.pathname}`, `http://parley.test/x/..${u.pathname}`, `${url}?expires=9999999999&sig=x`, u.pathname];
}

beforeAll(async () => {
  ta = await buildTestApp();
  adminA = await ta.newAdmin('Tenant A');
  adminB = await ta.newAdmin('Tenant B');
  a = await seedWorkspace(ta, adminA);
  b = await seedWorkspace(ta, adminB);

  const mediaA = await upload(`/bot/${a.ids.bot}/uploadMedia`, adminA.token, { fileName: 'secret.png', mimeType: 'image/png', content: png });
  expect(mediaA.statusCode).toBe(201);
  fileOfA = mediaA.json().mediaLink;
  const csvA = await upload('/import-history/upload', adminA.token, { fileName: 'a.csv', mimeType: 'text/csv', content: 'phone\n+14155550100\n' });
  csvOfA = csvA.json().fileUrl;

  const sample = await upload('/whatsapp-template/upload-media', adminB.token, { fileName: 'b.png', mimeType: 'image/png', content: png });
  expect(sample.statusCode).toBe(201);
  assetOfB = sample.json().assetUrl;
  const mediaB = await upload(`/bot/${b.ids.bot}/uploadMedia`, adminB.token, { fileName: 'b.png', mimeType: 'image/png', content: png });
  botMediaOfB = mediaB.json().mediaLink;
  const tpl = await ta.call('POST', '/whatsapp-template', {
    token: adminB.token,
    body: {
      name: 'picture_note',
      language: 'en_US',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: [sample.json().FBhandle] } },
        { type: 'BODY', text: 'Look at this' },
      ],
      mediaUrl: assetOfB,
      whatsappAccountId: b.ids.whatsappAccount,
      workspaceId: b.workspaceId,
    },
  });
  expect(tpl.statusCode).toBe(201);
  mediaTemplateOfB = tpl.json().id;
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
  await ta.db.update(t.whatsappTemplates).set({ status: 'APPROVED' }).where(eq(t.whatsappTemplates.id, mediaTemplateOfB));
});
afterAll(async () => {
  await ta?.close();
});

const messagesOfB = async () => (await ta.db.select().from(t.messages).where(eq(t.messages.workspaceId, b.workspaceId))).length;

describe('POST /message/template headerMediaLink', () => {
  const send = (headerMediaLink?: string) =>
    ta.call('POST', '/message/template', {
      token: adminB.token,
      body: { conversationId: b.ids.conversation, templateId: mediaTemplateOfB, parameters: { body: [], ...(headerMediaLink ? { headerMediaLink } : {}) } },
    });

  it("refuses another workspace's file in any spelling, as an unknown file, before anything reaches Meta", async () => {
    const sentBefore = ta.sandbox.sent.length;
    const storedBefore = await messagesOfB();
    for (const link of otherSpellings(fileOfA).filter((l) => /^https?:/i.test(l))) {
      const res = await send(link);
      expect(res.statusCode, link).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect(res.body).not.toContain('sig=');
    }
    const unknown = await send(fileOfA.replace(a.workspaceId, b.workspaceId));
    expect(unknown.statusCode).toBe(404);
    expect(ta.sandbox.sent.length).toBe(sentBefore);
    expect(await messagesOfB()).toBe(storedBefore);
  });

  it('signs a file of its own workspace, and hands an external address on unsigned', async () => {
    const before = ta.sandbox.sent.length;
    const own = await send(botMediaOfB);
    expect(own.statusCode).toBe(201);
    const external = await send('https://cdn.example.com/banner.png');
    expect(external.statusCode).toBe(201);
    const links = ta.sandbox.sent.slice(before).map((m) => {
      const components = (m.body as { template: { components: { parameters: { image: { link: string } }[] }[] } }).template.components;
      return components[0].parameters[0].image.link;
    });
    expect(links[0]).toMatch(new RegExp(`/files/${b.workspaceId}/bot-media/.+\\?expires=\\d+&sig=`));
    expect(links[1]).toBe('https://cdn.example.com/banner.png');
  });

  it("refuses a stored template whose mediaUrl names another workspace's file (rows written before the check)", async () => {
    await ta.db.update(t.whatsappTemplates).set({ mediaUrl: fileOfA }).where(eq(t.whatsappTemplates.id, mediaTemplateOfB));
    const sentBefore = ta.sandbox.sent.length;
    const res = await send();
    expect(res.statusCode).toBe(404);
    expect(ta.sandbox.sent.length).toBe(sentBefore);
    await ta.db.update(t.whatsappTemplates).set({ mediaUrl: assetOfB }).where(eq(t.whatsappTemplates.id, mediaTemplateOfB));
  });
});

describe('POST /whatsapp-template mediaUrl', () => {
  const create = (name: string, mediaUrl: string) =>
    ta.call('POST', '/whatsapp-template', {
      token: adminB.token,
      body: {
        name,
        language: 'en_US',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Hello' }],
        mediaUrl,
        whatsappAccountId: b.ids.whatsappAccount,
        workspaceId: b.workspaceId,
      },
    });

  it("refuses another workspace's file and non-http addresses, storing nothing and submitting nothing to Meta", async () => {
    const rowsBefore = (await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.workspaceId, b.workspaceId))).length;
    const atMetaBefore = ta.sandbox.templates.length;
    for (const link of otherSpellings(fileOfA)) expect((await create('stolen_media', link)).statusCode, link).toBe(404);
    for (const link of ['javascript:alert(1)', 'file:///etc/passwd', 'not a url']) expect((await create('odd_media', link)).statusCode, link).toBe(400);
    expect((await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.workspaceId, b.workspaceId))).length).toBe(rowsBefore);
    expect(ta.sandbox.templates.length).toBe(atMetaBefore);
  });

  it('accepts its own file and an external address', async () => {
    expect((await create('own_media', assetOfB)).json().mediaUrl).toBe(assetOfB);
    expect((await create('cdn_media', 'https://cdn.example.com/x.png')).json().mediaUrl).toBe('https://cdn.example.com/x.png');
  });
});

describe('PATCH /bot/{botId} media node links', () => {
  const canvas = (mediaLink: string) => ({
    nodes: [
      { id: 'start', type: 'StartNode', position: { x: 0, y: 0 }, data: { label: 'Start' }, deletable: false },
      { id: 'm1', type: 'MediaNode', position: { x: 0, y: 100 }, data: { label: 'Photo', mediaLink, mediaType: 'image' } },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'm1' }],
  });
  const patch = (mediaLink: string) => ta.call('PATCH', `/bot/${b.ids.bot}`, { token: adminB.token, body: { rfInstance: canvas(mediaLink) } });
  const storedCanvas = async () => JSON.stringify((await ta.db.select().from(t.bots).where(eq(t.bots.id, b.ids.bot)))[0].rfInstance);

  it("refuses another workspace's file and leaves the canvas as it was", async () => {
    const before = await storedCanvas();
    for (const link of otherSpellings(fileOfA).filter((l) => /^https?:/i.test(l))) {
      const res = await patch(link);
      expect(res.statusCode, link).toBe(404);
    }
    expect(await storedCanvas()).toBe(before);
  });

  it('accepts its own upload and an external address', async () => {
    expect((await patch(botMediaOfB)).statusCode).toBe(200);
    expect((await patch('https://cdn.example.com/a.png')).statusCode).toBe(200);
  });
});

describe('POST /import-history fileUrl', () => {
  it("refuses another workspace's upload and addresses outside the store", async () => {
    const before = (await ta.db.select().from(t.importHistories).where(eq(t.importHistories.workspaceId, b.workspaceId))).length;
    for (const fileUrl of [...otherSpellings(csvOfA), 'https://cdn.example.com/c.csv', botMediaOfB]) {
      const res = await ta.call('POST', '/import-history', {
        token: adminB.token,
        body: { fileName: 'c.csv', fileUrl, workspaceId: b.workspaceId, columnAttributeMap: [{ columnName: 'phone', attribute: 'phoneNumber' }] },
      });
      expect(res.statusCode, fileUrl).toBe(400);
    }
    expect((await ta.db.select().from(t.importHistories).where(eq(t.importHistories.workspaceId, b.workspaceId))).length).toBe(before);
  });
});
