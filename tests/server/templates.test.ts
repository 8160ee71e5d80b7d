/** Templates against the sandbox: submit for review, status by webhook and by sync, delete at Meta, header media. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { multipartBody } from '../support/multipart';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;
let accountId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Template Works');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', {
    token: admin.token,
    body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId },
  });
  expect(res.statusCode).toBe(201);
  accountId = res.json().id;
});
afterAll(async () => {
  await ta?.close();
});

async function settle() {
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
}

const template = (name: string, components: unknown[] = [{ type: 'BODY', text: 'Your appointment is confirmed.' }]) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  components,
  whatsappAccountId: accountId,
  workspaceId: admin.workspaceId,
});
const stored = async (id: string) => (await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, id)))[0];
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

describe('POST /whatsapp-template', () => {
  it('submits the template to WhatsApp, stores it PENDING with Meta’s id, and the review webhook approves it', async () => {
    const res = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: template('appointment_confirmed', [
        { type: 'HEADER', format: 'TEXT', text: 'Appointment' },
        { type: 'BODY', text: 'Hi {{1}}, see you on {{2}}.', example: { body_text: [['Ada', 'Monday']] } },
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Reschedule' }, { type: 'URL', text: 'Details', url: 'https://x.test/a/{{1}}', example: ['A1'] }] },
      ]),
    });
    expect(res.statusCode).toBe(201);
    const tpl = res.json();
    expect(tpl).toMatchObject({ name: 'appointment_confirmed', status: 'PENDING', category: 'UTILITY', whatsappAccountId: accountId });
    const atMeta = ta.sandbox.templates.find((x) => x.name === 'appointment_confirmed' && x.wabaId === number.wabaAccountId);
    expect(atMeta).toBeDefined();
    expect(tpl.whatsappTemplateId).toBe(atMeta!.id);
    expect(atMeta!.components).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'BODY', text: 'Hi {{1}}, see you on {{2}}.' })]));

    await settle();
    expect((await stored(tpl.id)).status).toBe('APPROVED');
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/whatsapp-templates`, { token: admin.token });
    expect(list.json().items.find((x: { id: string }) => x.id === tpl.id).status).toBe('APPROVED');
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, admin.workspaceId));
    expect(events.some((e) => e.type === 'template.status')).toBe(true);
  });

  it('records a rejection from the review', async () => {
    const res = await ta.call('POST', '/whatsapp-template', { token: admin.token, body: template('please_reject_me') });
    expect(res.statusCode).toBe(201);
    await settle();
    expect((await stored(res.json().id)).status).toBe('REJECTED');
  });

  it('answers 409 for a name and language that exist on the number, and WhatsApp’s reason when it refuses', async () => {
    expect((await ta.call('POST', '/whatsapp-template', { token: admin.token, body: template('twice_named') })).statusCode).toBe(201);
    const again = await ta.call('POST', '/whatsapp-template', { token: admin.token, body: template('twice_named') });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A template named twice_named in en_US exists already on this WhatsApp number');

    const refused = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: template('no_example', [{ type: 'BODY', text: 'Hi {{1}}' }]),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/^WhatsApp refused the request: .*example/);
    expect(await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.name, 'no_example'))).toHaveLength(0);
  });

  it('asks for a sample before a media header is submitted', async () => {
    const res = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: template('with_picture', [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'New arrivals' }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('A media header needs a sample: upload one first (example.header_handle)');
  });
});

describe('POST /whatsapp-template/upload-media', () => {
  it('answers assetUrl from the file store and FBhandle from the Resumable Upload API, which a media header then uses', async () => {
    const form = multipartBody({ fileName: 'header.png', mimeType: 'image/png', content: png });
    const res = await ta.app.inject({
      method: 'POST',
      url: '/whatsapp-template/upload-media',
      headers: { authorization: `Bearer ${admin.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(201);
    const { assetUrl, FBhandle } = res.json();
    expect(assetUrl).toMatch(/\/files\/.+header\.png$/);
    expect(ta.sandbox.uploadedFile(FBhandle)?.equals(png)).toBe(true);
    const file = await ta.call('GET', new URL(assetUrl).pathname, { token: admin.token });
    expect(Buffer.from(file.rawPayload).equals(png)).toBe(true);

    const created = await ta.call('POST', '/whatsapp-template', {
      token: admin.token,
      body: {
        ...template('new_arrivals', [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: [FBhandle] } },
          { type: 'BODY', text: 'New arrivals are in.' },
        ]),
        mediaUrl: assetUrl,
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().mediaUrl).toBe(assetUrl);
  });

  it('answers 400 when the workspace has no WhatsApp number to upload through', async () => {
    const other = await ta.newAdmin('No Numbers Yet');
    const form = multipartBody({ fileName: 'header.png', mimeType: 'image/png', content: png });
    const res = await ta.app.inject({
      method: 'POST',
      url: '/whatsapp-template/upload-media',
      headers: { authorization: `Bearer ${other.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Connect a WhatsApp number first: template media is uploaded through it');
  });
});

describe('DELETE /whatsapp-template/{id}', () => {
  it('deletes the template at WhatsApp (that language only), then here', async () => {
    const res = await ta.call('POST', '/whatsapp-template', { token: admin.token, body: template('to_be_deleted') });
    const es = await ta.call('POST', '/whatsapp-template', { token: admin.token, body: { ...template('to_be_deleted'), language: 'es' } });
    const id = res.json().id;
    const del = await ta.call('DELETE', `/whatsapp-template/${id}`, { token: admin.token });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true });
    expect(await stored(id)).toBeUndefined();
    const left = ta.sandbox.templates.filter((x) => x.name === 'to_be_deleted' && x.wabaId === number.wabaAccountId);
    expect(left.map((x) => x.language)).toEqual(['es']);
    expect(await stored(es.json().id)).toBeDefined();
  });

  it('deletes here a template WhatsApp no longer has', async () => {
    const res = await ta.call('POST', '/whatsapp-template', { token: admin.token, body: template('gone_at_meta') });
    const id = res.json().id;
    await ta.db.update(t.whatsappTemplates).set({ whatsappTemplateId: '123456789012345' }).where(eq(t.whatsappTemplates.id, id));
    expect((await ta.call('DELETE', `/whatsapp-template/${id}`, { token: admin.token })).statusCode).toBe(200);
    expect(await stored(id)).toBeUndefined();
  });
});

describe('POST /workspace/{id}/whatsapp-templates/sync', () => {
  it('updates changed statuses and adds templates made elsewhere', async () => {
    const a = await ta.call('POST', '/whatsapp-template', { token: admin.token, body: template('synced_status') });
    const b = await ta.call('POST', '/whatsapp-template', { token: admin.token, body: template('made_elsewhere') });
    await settle();
    // Parley missed a status change, and lost track of a template (as if made in WhatsApp Manager).
    await ta.db.update(t.whatsappTemplates).set({ status: 'PENDING' }).where(eq(t.whatsappTemplates.id, a.json().id));
    await ta.db.delete(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, b.json().id));

    const res = await ta.call('POST', `/workspace/${admin.workspaceId}/whatsapp-templates/sync`, { token: admin.token, body: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json().updated).toBeGreaterThanOrEqual(1);
    expect(res.json().imported).toBeGreaterThanOrEqual(1);
    expect((await stored(a.json().id)).status).toBe('APPROVED');
    const [again] = await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.name, 'made_elsewhere'));
    expect(again).toMatchObject({ status: 'APPROVED', whatsappAccountId: accountId });

    const second = await ta.call('POST', `/workspace/${admin.workspaceId}/whatsapp-templates/sync`, { token: admin.token, body: {} });
    expect(second.json()).toEqual({ updated: 0, imported: 0 });
  });
});

describe('template sync from the Graph API', () => {
  const connect = async (session: Session, n: SandboxAccount) => {
    const res = await ta.call('POST', '/whatsapp', {
      token: session.token,
      body: { phoneNumber: n.phoneNumber, wabaAccountId: n.wabaAccountId, appId: n.appId, phoneNumberId: n.phoneNumberId, token: n.token, workspaceId: session.workspaceId },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };
  const listed = async (session: Session) =>
    (await ta.call('GET', `/workspace/${session.workspaceId}/whatsapp-templates?limit=200`, { token: session.token })).json().items as {
      id: string; name: string; language: string; status: string; whatsappTemplateId: string; memberId: string; mediaUrl: string | null;
    }[];

  it('lists on connect every template the number already has at Meta, over several pages of the Graph listing', async () => {
    const owner = await ta.newAdmin('Already On Meta');
    const n = ta.sandbox.addAccount();
    // 105 approved templates made in WhatsApp Manager: more than one page of the listing (100 a page).
    for (let i = 0; i < 105; i++) ta.sandbox.seedTemplate(n.phoneNumberId, { name: `existing_${String(i).padStart(3, '0')}` });
    ta.sandbox.seedTemplate(n.phoneNumberId, { name: 'existing_000', language: 'es', status: 'PAUSED' });
    await connect(owner, n);

    const items = await listed(owner);
    const existing = items.filter((x) => x.name.startsWith('existing_'));
    expect(existing).toHaveLength(106);
    expect(items.map((x) => x.name)).toContain('hello_world');
    expect(existing.find((x) => x.name === 'existing_000' && x.language === 'es')).toMatchObject({ status: 'PAUSED', memberId: owner.member.id });
    const atMeta = ta.sandbox.templates.find((x) => x.name === 'existing_104' && x.wabaId === n.wabaAccountId)!;
    expect(existing.find((x) => x.name === 'existing_104')).toMatchObject({ status: 'APPROVED', whatsappTemplateId: atMeta.id });
  });

  it('syncs on demand without ever doubling a template, and keeps what Parley holds of its own', async () => {
    const owner = await ta.newAdmin('Sync Twice');
    const n = ta.sandbox.addAccount();
    await connect(owner, n);
    const accountId = (await ta.call('GET', `/workspace/${owner.workspaceId}/whatsapp`, { token: owner.token })).json().items[0].id;
    const created = await ta.call('POST', '/whatsapp-template', {
      token: owner.token,
      body: { ...template('my_own_template'), mediaUrl: 'https://cdn.example.com/header.png', whatsappAccountId: accountId, workspaceId: owner.workspaceId },
    });
    expect(created.statusCode).toBe(201);
    await settle();
    // At Meta it was paused meanwhile, and a new one was made in WhatsApp Manager.
    await ta.db.update(t.whatsappTemplates).set({ status: 'PENDING' }).where(eq(t.whatsappTemplates.id, created.json().id));
    ta.sandbox.templates.find((x) => x.id === created.json().whatsappTemplateId)!.status = 'PAUSED';
    ta.sandbox.seedTemplate(n.phoneNumberId, { name: 'made_in_manager', category: 'MARKETING' });

    const first = await ta.call('POST', `/workspace/${owner.workspaceId}/whatsapp-templates/sync`, { token: owner.token, body: {} });
    expect(first.json()).toEqual({ updated: 1, imported: 1 });
    const second = await ta.call('POST', `/workspace/${owner.workspaceId}/whatsapp-templates/sync`, { token: owner.token, body: {} });
    expect(second.json()).toEqual({ updated: 0, imported: 0 });

    const items = await listed(owner);
    expect(items.filter((x) => x.name === 'my_own_template')).toHaveLength(1);
    expect(items.filter((x) => x.name === 'made_in_manager')).toHaveLength(1);
    expect(items.filter((x) => x.name === 'hello_world')).toHaveLength(1);
    // Parley's own data stays: the header media and the author.
    expect(items.find((x) => x.name === 'my_own_template')).toMatchObject({
      status: 'PAUSED',
      mediaUrl: 'https://cdn.example.com/header.png',
      memberId: owner.member.id,
    });
  });

  it('syncs the number when the review webhook names a template Parley does not know', async () => {
    const owner = await ta.newAdmin('Webhook Sync');
    const n = ta.sandbox.addAccount();
    await connect(owner, n);
    const later = ta.sandbox.seedTemplate(n.phoneNumberId, { name: 'reviewed_elsewhere', status: 'PENDING' });
    await ta.sandbox.setTemplateStatus(later.id, 'APPROVED');
    await settle();
    const items = await listed(owner);
    expect(items.filter((x) => x.name === 'reviewed_elsewhere')).toEqual([expect.objectContaining({ status: 'APPROVED', whatsappTemplateId: later.id })]);
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, owner.workspaceId));
    expect(events.some((e) => e.type === 'template.status' && JSON.stringify(e.payload).includes('reviewed_elsewhere'))).toBe(true);
  });

  it('answers the sync to admins only', async () => {
    const agent = await ta.newMember(admin, 'agent');
    const res = await ta.call('POST', `/workspace/${admin.workspaceId}/whatsapp-templates/sync`, { token: agent.token, body: {} });
    expect(res.statusCode).toBe(403);
  });
});
