// The sandbox speaks 2026 (reference whatsapp-platform-2026.md): customers with usernames and hidden phones,
// sends by `recipient`, user id changes, marketing stop and resume, 131049 and 131050, a template paused
// mid-campaign, the portfolio's messaging limit, prices on statuses and coexistence echoes. Each webhook is
// checked against the reference's shape as the receiver gets it.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, sandboxAccount, startSandbox } from '../../src/sandbox';

/* eslint-disable @typescript-eslint/no-explicit-any -- webhook bodies are read as loose JSON here */
const got: { field: string; value: any }[] = [];
let sandbox: Sandbox;
const pnid = sandboxAccount.phoneNumberId;
const userIdShape = expect.stringMatching(/^US\.\d{20}$/);

beforeAll(async () => {
  sandbox = await startSandbox({
    appSecret: 's',
    statusDelayMs: 5,
    webhookRetryDelayMs: 10,
    deliver: async (raw) => {
      for (const e of JSON.parse(raw).entry) for (const c of e.changes) got.push({ field: c.field, value: c.value });
      return 200;
    },
  });
  sandbox.seedTemplate(pnid, { name: 'spring_sale', category: 'MARKETING', components: [{ type: 'BODY', text: 'Spring sale: 20% off' }] });
});
afterAll(async () => {
  await sandbox?.close();
});
afterEach(() => sandbox.settle());

const of = (field: string) => got.filter((g) => g.field === field).map((g) => g.value);
const statusesOf = (wamid: string) => of('messages').filter((v) => v.statuses?.[0]?.id === wamid);

async function send(body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const res = await fetch(`${sandbox.baseUrl}/${pnid}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandboxAccount.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', ...body }),
  });
  return { status: res.status, json: await res.json() };
}
const marketing = (address: Record<string, string>) => send({ ...address, type: 'template', template: { name: 'spring_sale', language: { code: 'en_US' } } });

describe('a customer with a username whose phone Meta withholds', () => {
  it('writes with from_user_id and the username, without from or wa_id', async () => {
    const { id } = await sandbox.customers.say('14155552001', 'Hi there', { name: 'Grace', username: 'grace.h', hidePhone: true });
    const value = of('messages').at(-1);
    expect(value).toEqual({
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: '16505550100', phone_number_id: pnid },
      contacts: [{ profile: { name: 'Grace', username: 'grace.h' }, user_id: userIdShape }],
      messages: [{ from_user_id: value.contacts[0].user_id, id, timestamp: expect.stringMatching(/^\d{10}$/), type: 'text', text: { body: 'Hi there' } }],
    });
  });

  it('is reached by recipient: the answer names the user id, statuses leave out recipient_id and carry contacts and prices', async () => {
    const { userId } = sandbox.customers.identity('14155552001');
    const r = await send({ recipient: userId, type: 'text', text: { body: 'Hello Grace' } });
    expect(r.status).toBe(200);
    expect(r.json.contacts).toEqual([{ input: userId, user_id: userId }]);
    await sandbox.settle();
    const [sent, delivered, read] = statusesOf(r.json.messages[0].id);
    expect(sent.statuses[0]).toEqual({
      id: r.json.messages[0].id,
      status: 'sent',
      timestamp: expect.any(String),
      recipient_user_id: userId,
      conversation: expect.any(Object),
      pricing: { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' },
    });
    // The username shows on delivered and read, never on sent.
    expect(sent.contacts).toEqual([{ user_id: userId }]);
    expect(delivered.contacts).toEqual([{ profile: { username: 'grace.h' }, user_id: userId }]);
    expect(delivered.statuses[0].pricing).toMatchObject({ pricing_model: 'PMP', category: 'service' });
    expect(read.statuses[0]).not.toHaveProperty('pricing');
    expect(sandbox.sent.at(-1)).toMatchObject({ recipient: userId, waId: '14155552001' });
  });

  it('a recipient no customer holds is refused; an OTP template needs a phone (131062)', async () => {
    const r = await send({ recipient: 'US.99999999999999999999', type: 'text', text: { body: 'x' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(131009);
    const bad = await send({ recipient: 'not-a-bsuid', type: 'text', text: { body: 'x' } });
    expect(bad.json.error.code).toBe(100);
    sandbox.seedTemplate(pnid, { name: 'login_code', category: 'AUTHENTICATION', components: [{ type: 'BODY', text: 'Your code' }] });
    const { userId } = sandbox.customers.identity('14155552001');
    const otp = await send({ recipient: userId, type: 'template', template: { name: 'login_code', language: { code: 'en_US' } } });
    expect(otp.json.error.code).toBe(131062);
  });
});

describe('a user id change', () => {
  it('sends user_changed_user_id from the old id and user_id_update with previous and current', async () => {
    await sandbox.customers.say('14155552002', 'hello', { username: 'max', hidePhone: true });
    const { previous, current } = await sandbox.customers.changeUserId('14155552002');
    expect(current).not.toBe(previous);
    const system = of('messages').at(-1).messages[0];
    expect(system).toEqual({
      from_user_id: previous,
      id: expect.any(String),
      timestamp: expect.any(String),
      type: 'system',
      system: { body: expect.any(String), type: 'user_changed_user_id', user_id: current },
    });
    expect(of('user_id_update').at(-1).user_id_update).toEqual([{ detail: expect.any(String), timestamp: expect.any(String), user_id: { previous, current } }]);
    expect((await send({ recipient: previous, type: 'text', text: { body: 'x' } })).status).toBe(400);
    expect((await send({ recipient: current, type: 'text', text: { body: 'x' } })).status).toBe(200);
  });
});

describe('marketing consent and caps', () => {
  it('stop sends user_preferences (user id, no wa_id when hidden) and marketing then fails with 131050; resume lifts it', async () => {
    await sandbox.customers.say('14155552003', 'hi', { username: 'lia', hidePhone: true });
    await sandbox.customers.setMarketingPreference('14155552003', 'stop');
    const userId = sandbox.customers.identity('14155552003').userId;
    expect(of('user_preferences').at(-1).user_preferences).toEqual([
      { user_id: userId, detail: expect.any(String), category: 'marketing_messages', value: 'stop', timestamp: expect.any(Number) },
    ]);
    const r = await marketing({ recipient: userId });
    expect(r.status).toBe(200);
    await sandbox.settle();
    const [failed] = statusesOf(r.json.messages[0].id);
    expect(failed.statuses[0]).toMatchObject({ status: 'failed', recipient_user_id: userId, errors: [{ code: 131050 }] });
    expect(failed).not.toHaveProperty('contacts');
    await sandbox.customers.setMarketingPreference('14155552003', 'resume');
    const again = await marketing({ recipient: userId });
    await sandbox.settle();
    expect(statusesOf(again.json.messages[0].id).map((v) => v.statuses[0].status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('a customer at the per-user marketing cap gets 131049 on marketing templates, with the phone shown on a phone send', async () => {
    await sandbox.customers.say('14155552004', 'hi');
    sandbox.customers.setMarketingCap('14155552004', true);
    const r = await marketing({ to: '14155552004' });
    await sandbox.settle();
    const [failed] = statusesOf(r.json.messages[0].id);
    expect(failed.statuses[0]).toMatchObject({ status: 'failed', recipient_id: '14155552004', errors: [{ code: 131049 }] });
    expect(failed.statuses[0]).not.toHaveProperty('recipient_user_id');
    sandbox.customers.setMarketingCap('14155552004', false);
    const ok = await marketing({ to: '14155552004' });
    await sandbox.settle();
    const [sent] = statusesOf(ok.json.messages[0].id);
    expect(sent.statuses[0]).toMatchObject({ status: 'sent', pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' } });
  });

  it('a template paused mid-campaign: its status webhook says FIRST_PAUSE and the next sends answer 132015', async () => {
    await sandbox.setTemplateStatus('spring_sale', 'PAUSED');
    expect(of('message_template_status_update').at(-1)).toMatchObject({ event: 'PAUSED', message_template_name: 'spring_sale', other_info: { title: 'FIRST_PAUSE' } });
    const r = await marketing({ to: '14155552004' });
    expect(r.json.error.code).toBe(132015);
    await sandbox.setTemplateStatus('spring_sale', 'APPROVED');
    expect(of('message_template_status_update').at(-1)).toMatchObject({ event: 'APPROVED', other_info: { title: 'UNPAUSE' } });
  });
});

describe("the portfolio's messaging limit", () => {
  it("is shared by the WABA's numbers: each answers it and gets its webhook; a raise sends business_capability_update", async () => {
    const r = await sandbox.setPortfolioLimit(pnid, 'TIER_10K');
    expect(r.numbers).toEqual([pnid]);
    const res = await fetch(`${sandbox.baseUrl}/${pnid}?fields=whatsapp_business_manager_messaging_limit`, { headers: { authorization: `Bearer ${sandboxAccount.token}` } });
    expect((await res.json()).whatsapp_business_manager_messaging_limit).toBe('TIER_10K');
    expect(of('phone_number_quality_update').at(-1)).toMatchObject({ current_limit: 'TIER_10K' });
    expect(of('business_capability_update').at(-1)).toEqual({ max_daily_conversations_per_business: 10000 });
  });
});

describe('coexistence echoes', () => {
  it('a message the business sends from the app arrives as smb_message_echoes, to the phone and the user id', async () => {
    await sandbox.customers.say('14155552005', 'hi');
    const { id } = await sandbox.customers.echo('14155552005', 'Sent from my phone');
    const userId = sandbox.customers.identity('14155552005').userId;
    expect(of('smb_message_echoes').at(-1)).toEqual({
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: '16505550100', phone_number_id: pnid },
      message_echoes: [{ from: '16505550100', to: '14155552005', to_user_id: userId, id, timestamp: expect.stringMatching(/^\d{10}$/), type: 'text', text: { body: 'Sent from my phone' } }],
    });
    // To a customer whose phone is hidden: `to` is left out.
    await sandbox.customers.echo('14155552001', 'Hi Grace');
    expect(of('smb_message_echoes').at(-1).message_echoes[0]).not.toHaveProperty('to');
  });
});

describe('the CLI', () => {
  const cli = async (...args: string[]) =>
    (
      await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args, '--url', sandbox.origin], {
        cwd: path.resolve(import.meta.dirname, '../..'),
        timeout: 30_000,
      })
    ).stdout;

  it('drives each 2026 simulation of a running sandbox through its control API', { timeout: 120_000 }, async () => {
    expect(await cli('say', '14155552100', 'hello', '--username', 'cli.user', '--hide-phone')).toMatch(/^sent wamid\.\S+; webhook delivered/);
    expect(of('messages').at(-1).contacts).toEqual([{ profile: { username: 'cli.user' }, user_id: userIdShape }]);
    expect(await cli('user-id', '14155552100')).toMatch(/user id US\.\d{20} -> US\.\d{20}/);
    expect(of('user_id_update').at(-1).user_id_update[0].user_id.current).toBe(sandbox.customers.identity('14155552100').userId);
    await cli('stop', '14155552100');
    expect(of('user_preferences').at(-1).user_preferences[0]).toMatchObject({ value: 'stop', user_id: sandbox.customers.identity('14155552100').userId });
    await cli('cap', '14155552102');
    const capped = await marketing({ to: '14155552102' });
    await sandbox.settle();
    expect(statusesOf(capped.json.messages[0].id)[0].statuses[0]).toMatchObject({ status: 'failed', errors: [{ code: 131049 }] });
    expect(await cli('echo', '14155552100', 'from', 'the', 'phone')).toMatch(/^sent wamid\./);
    expect(of('smb_message_echoes').at(-1).message_echoes[0].text).toEqual({ body: 'from the phone' });
    expect(await cli('limit', 'TIER_100K')).toContain(`portfolio limit TIER_100K on numbers ${pnid}`);
    expect(of('business_capability_update').at(-1)).toEqual({ max_daily_conversations_per_business: 100000 });
  });
});
