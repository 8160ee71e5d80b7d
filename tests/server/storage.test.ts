/** The file store behind the three upload routes, and /files serving to members only or by signed link. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { multipartBody } from '../support/multipart';

let ta: TestApp;
let admin: Session;
let agent: Session;
let stranger: Session;
let botId: string;

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('File Keepers');
  agent = await ta.newMember(admin, 'agent');
  stranger = await ta.newAdmin('Other Shop');
  botId = (await ta.call('POST', '/bot', { token: admin.token, body: { workspaceId: admin.workspaceId } })).json().id;
});
afterAll(async () => {
  await ta?.close();
});

const upload = (url: string, token: string, file: Parameters<typeof multipartBody>[0]) => {
  const { payload, headers } = multipartBody(file);
  return ta.app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
};
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const filesDir = () => path.join(ta.app.parley.config.dataDir, 'files', admin.workspaceId);
const storedFiles = (area: string) =>
  fs.existsSync(path.join(filesDir(), area)) ? fs.readdirSync(path.join(filesDir(), area), { recursive: true }).map(String) : [];

describe('uploads', () => {
  it('stores a CSV for import and serves it back to members of the workspace only', async () => {
    const csv = 'phone,name\n+14155550101,Ada\n';
    const res = await upload('/import-history/upload', agent.token, { fileName: 'my contacts.csv', mimeType: 'text/csv', content: csv });
    expect(res.statusCode).toBe(201);
    const { fileUrl } = res.json();
    expect(fileUrl).toMatch(new RegExp(`^http://parley\\.test/files/${admin.workspaceId}/imports/[0-9a-f-]{36}/my_contacts\\.csv$`));

    const got = await ta.call('GET', pathOf(fileUrl), { token: admin.token });
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe(csv);
    expect(got.headers['content-type']).toBe('text/csv');
    expect(got.headers['x-content-type-options']).toBe('nosniff');

    expect((await ta.call('GET', pathOf(fileUrl))).statusCode).toBe(401);
    const other = await ta.call('GET', pathOf(fileUrl), { token: stranger.token });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('phone');
    expect((await ta.call('GET', '/files/../../etc/passwd', { token: admin.token })).statusCode).toBe(404);
  });

  it('uploads bot media (admins) and hands out signed, expiring links for Meta', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const res = await upload(`/bot/${botId}/uploadMedia`, admin.token, { fileName: 'logo.png', mimeType: 'image/png', content: png });
    expect(res.statusCode).toBe(201);
    const { mediaLink } = res.json();
    const key = ta.app.parley.services.deps.files.keyFromUrl(mediaLink)!;
    expect(key).toContain(`${admin.workspaceId}/bot-media/`);

    const signed = ta.app.parley.services.deps.files.signedUrl(key, 60);
    const viaLink = await ta.call('GET', pathOf(signed));
    expect(viaLink.statusCode).toBe(200);
    expect(viaLink.rawPayload.equals(png)).toBe(true);
    expect(viaLink.headers['content-type']).toBe('image/png');

    const tampered = signed.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await ta.call('GET', pathOf(tampered))).statusCode).toBe(403);
    const expired = signed.replace(/expires=\d+/, 'expires=1000');
    expect((await ta.call('GET', pathOf(expired))).statusCode).toBe(403);

    const asAgent = await upload(`/bot/${botId}/uploadMedia`, agent.token, { fileName: 'a.png', mimeType: 'image/png', content: png });
    expect(asAgent.statusCode).toBe(403);
  });

  it('answers the profile photo as a link that works without a token', async () => {
    const res = await upload('/member/profile-photo', agent.token, { fileName: 'me.jpg', mimeType: 'image/jpeg', content: 'jpegdata' });
    expect(res.statusCode).toBe(201);
    const { photoUrl } = res.json();
    expect(photoUrl).toContain('/profile-photos/');
    const got = await ta.call('GET', pathOf(photoUrl));
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe('jpegdata');
  });

  it('refuses a type the route does not accept with 400, and keeps nothing', async () => {
    const before = storedFiles('bot-media').length;
    const res = await upload(`/bot/${botId}/uploadMedia`, admin.token, { fileName: 'x.html', mimeType: 'text/html', content: '<script>' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Files of type text/html are not accepted here; accepted: image/jpeg, image/png, video/mp4, video/3gpp, application/pdf',
    });
    expect(storedFiles('bot-media').length).toBe(before);
  });

  it('refuses a file over the limit with 413 and removes the partial file', async () => {
    const before = storedFiles('bot-media').length;
    const big = Buffer.alloc(16 * 1024 * 1024 + 10, 1);
    const res = await upload(`/bot/${botId}/uploadMedia`, admin.token, { fileName: 'big.mp4', mimeType: 'video/mp4', content: big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'The file is larger than the limit of 16 MB' });
    expect(storedFiles('bot-media').length).toBe(before);
  });

  it('says how to send the file when the request is not multipart or the field is wrong', async () => {
    const plain = await ta.call('POST', '/import-history/upload', { token: agent.token, body: { fileUrl: 'x' } });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toBe('Send the file as multipart/form-data in the field "file"');
    const wrongField = await upload('/import-history/upload', agent.token, { field: 'csv', fileName: 'a.csv', mimeType: 'text/csv', content: 'a' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toBe('Unexpected file field "csv". Send the file as multipart/form-data in the field "file"');
  });
});
