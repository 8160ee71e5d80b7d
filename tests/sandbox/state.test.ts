// A sandbox restarted with the same state file remembers what the product's database also remembers:
// templates (with their review status and ids), customers' 24-hour windows and names, upload handles.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, sandboxAccount, startSandbox } from '../../src/sandbox';
import { GraphApiError, createGraphClient, messages } from '../../src/server/whatsapp/graph-client';

const creds = { token: sandboxAccount.token, phoneNumberId: sandboxAccount.phoneNumberId, wabaAccountId: sandboxAccount.wabaAccountId, appId: sandboxAccount.appId };
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const start = async (stateFile?: string) => {
  const s = await startSandbox({ appSecret: 's', templateReviewDelayMs: 0, statusDelayMs: 0, stateFile });
  open.push(s);
  return s;
};

describe('sandbox state across restarts', () => {
  it('keeps templates, windows, names and handles; sample flows keep their ids', async () => {
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sandbox-')), 'state.json');
    const first = await start(stateFile);
    const c1 = createGraphClient({ baseUrl: first.baseUrl, retries: 0 });
    const created = await c1.createTemplate(creds, { name: 'kept_template', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Kept' }] });
    await first.settle();
    await first.customers.say('+14155550190', 'hello', { name: 'Mary Jackson' });
    const { handle } = await c1.resumableUpload(creds, { data: Buffer.from('png'), fileName: 'a.png', mimeType: 'image/png' });
    const flowIds = first.flows.map((f) => f.id);
    await first.close();

    const second = await start(stateFile);
    const c2 = createGraphClient({ baseUrl: second.baseUrl, retries: 0 });
    expect(second.templates.find((t) => t.name === 'kept_template')).toMatchObject({ id: created.id, status: 'APPROVED' });
    expect(second.templates.filter((t) => t.name === 'hello_world')).toHaveLength(1);
    expect(second.flows.map((f) => f.id)).toEqual(flowIds);
    expect(second.customers.windowOpen('14155550190')).toBe(true);
    await c2.sendMessage(creds, '14155550190', messages.template('kept_template', 'en_US'));
    await c2.sendMessage(creds, '14155550190', messages.text('welcome back'));
    await c2.createTemplate(creds, {
      name: 'uses_old_handle',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } }, { type: 'BODY', text: 'x' }],
    });
    const { webhook } = await second.customers.say('14155550190', 'again');
    expect((webhook.body as { entry: { changes: { value: { contacts: { profile: { name: string } }[] } }[] }[] }).entry[0].changes[0].value.contacts[0].profile.name).toBe('Mary Jackson');
  });

  it('restoreWindow reopens a window without a webhook, for what the database knows', async () => {
    const s = await start();
    const c = createGraphClient({ baseUrl: s.baseUrl, retries: 0 });
    s.customers.restoreWindow('+14155550191', new Date(Date.now() - 60 * 60_000));
    await c.sendMessage(creds, '+14155550191', messages.text('we are back'));
    s.customers.restoreWindow('+14155550192', new Date(Date.now() - 25 * 60 * 60_000));
    const err = await c.sendMessage(creds, '+14155550192', messages.text('too late')).catch((e) => e);
    expect((err as GraphApiError).code).toBe(131047);
    await s.settle();
    // Only the status webhooks of our own message: restoring sent nothing on the customer's behalf.
    expect(s.webhooks.filter((w) => w.rawBody.includes('"messages":['))).toHaveLength(0);
    expect(s.received).toHaveLength(0);
  });

  it('refuses a message to the business number itself (131021)', async () => {
    const s = await start();
    const c = createGraphClient({ baseUrl: s.baseUrl, retries: 0 });
    const err = (await c.sendMessage(creds, sandboxAccount.phoneNumber, messages.template('hello_world', 'en_US')).catch((e) => e)) as GraphApiError;
    expect([err.code, err.kind]).toEqual([131021, 'invalid_request']);
    expect(err.userMessage).toBe('A message cannot be sent to the business number itself.');
  });
});

describe('control endpoints (what the CLI uses)', () => {
  it('inject failures, move the clock, change a template status and the webhook URL over HTTP', async () => {
    const s = await start();
    const c = createGraphClient({ baseUrl: s.baseUrl, retries: 0 });
    const post = (p: string, body: unknown) =>
      fetch(`${s.origin}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    await s.customers.say('14155550193', 'hi');
    expect((await post('/_sandbox/failures', { code: 131000 })).status).toBe(200);
    expect(((await c.sendMessage(creds, '14155550193', messages.text('x')).catch((e) => e)) as GraphApiError).code).toBe(131000);
    await c.sendMessage(creds, '14155550193', messages.text('the failure was used up'));

    expect((await post('/_sandbox/time', { advanceMs: 25 * 3_600_000 })).status).toBe(200);
    expect(((await c.sendMessage(creds, '14155550193', messages.text('late')).catch((e) => e)) as GraphApiError).code).toBe(131047);

    const paused = await post('/_sandbox/templates/hello_world/status', { status: 'PAUSED' });
    expect(await paused.json()).toMatchObject({ updated: [{ name: 'hello_world', status: 'PAUSED' }] });
    expect(((await c.sendMessage(creds, '14155550193', messages.template('hello_world', 'en_US')).catch((e) => e)) as GraphApiError).code).toBe(132015);
    expect((await post('/_sandbox/templates/nope/status', { status: 'APPROVED' })).status).toBe(404);
    expect((await post('/_sandbox/templates/hello_world/status', { status: 'SHINY' })).status).toBe(400);

    expect((await post('/_sandbox/webhook-url', { url: 'http://127.0.0.1:9/none' })).status).toBe(200);
    expect(await (await fetch(`${s.origin}/_sandbox`)).json()).toMatchObject({ webhookUrl: 'http://127.0.0.1:9/none', accounts: [{ phoneNumberId: sandboxAccount.phoneNumberId }] });
    expect((await post('/_sandbox/customers/not-a-number/messages', { type: 'text', text: 'x' })).status).toBe(400);
  });

  it('the optional per-pair limit answers 131056 to a burst at one customer only', async () => {
    const s = await startSandbox({ appSecret: 's', statusDelayMs: 0, pairRateLimit: { burst: 2, perSecond: 1 / 6 } });
    open.push(s);
    const c = createGraphClient({ baseUrl: s.baseUrl, retries: 0 });
    await s.customers.say('14155550194', 'hi');
    await s.customers.say('14155550195', 'hi');
    await c.sendMessage(creds, '14155550194', messages.text('1'));
    await c.sendMessage(creds, '14155550194', messages.text('2'));
    const err = (await c.sendMessage(creds, '14155550194', messages.text('3')).catch((e) => e)) as GraphApiError;
    expect([err.code, err.kind]).toEqual([131056, 'rate_limited']);
    expect(err.userMessage).toBe('Too many messages were sent to this customer in a short time; wait a little before sending again.');
    await c.sendMessage(creds, '14155550195', messages.text('another customer is unaffected'));
  });
});
