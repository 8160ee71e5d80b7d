/**
 * Campaigns: the workspace's campaign settings (an admin sets opt-out keywords, the confirmation and
 * the time zone; the keyword is honoured), the trigger key's rate limit over real HTTP on 127.0.0.1 (100 calls
 * per 10 s per key, then 429 with Retry-After; another key is not affected), and the scheduled start (stays
 * `scheduled`, listed so, cancelable, started by the scheduler when due, claimed once by two claimers).
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { loadConfig } from '../../src/server/config';
import { buildTestApp, testConfig, type Session, type TestApp } from '../support/server';
import { allowUsMarketing } from '../support/us-marketing';
import { until } from '../support/until';

let ta: TestApp;
/** This file's trigger limit per key and 10 s (the product's is 100). */
const triggerLimit = 20;
let admin: Session;
let number: SandboxAccount;
let accountId: string;
let templateId: string;

const campaignRow = async (id: string) => (await ta.db.select().from(t.campaigns).where(eq(t.campaigns.id, id)))[0];
const runsOf = (id: string) => ta.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.campaignId, id));

function canvas(trigger: Record<string, unknown>) {
  return {
    nodes: [
      { id: 'trigger', position: { x: 0, y: 0 }, ...trigger },
      { id: 'send', type: 'SendWhatsappNode', position: { x: 0, y: 100 }, data: { label: 'Send', whatsappAccountId: accountId, whatsappTemplateId: templateId, variables: [] } },
    ],
    edges: [{ id: 'e1', source: 'trigger', target: 'send' }],
    viewport: { x: 0, y: 0, zoom: 1 },
  };
}

async function newCampaign(type: 'oneTime' | 'recurring', trigger: Record<string, unknown>) {
  const created = await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: admin.workspaceId, type, name: `C ${randomUUID().slice(0, 6)}` } });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  const patched = await ta.call('PATCH', `/campaign/${id}`, { token: admin.token, body: { rfInstance: canvas(trigger) } });
  expect(patched.statusCode, patched.body).toBe(200);
  return id;
}

async function segmentOf(batch: string, n: number) {
  await ta.db.insert(t.contacts).values(
    Array.from({ length: n }, (_, i) => ({
      workspaceId: admin.workspaceId,
      phoneNumber: `+1415${String(7_000_000 + i + batch.charCodeAt(0) * 100).padStart(7, '0')}`,
      attributes: { batch },
    })),
  );
  const seg = await ta.call('POST', '/segment', {
    token: admin.token,
    body: { name: `Batch ${batch}`, filters: [{ column: 'batch', operator: 'IS', value: batch, conjuction: 'AND' }], workspaceId: admin.workspaceId },
  });
  expect(seg.statusCode, seg.body).toBe(201);
  return seg.json().id as string;
}

async function deployRecurring() {
  const id = await newCampaign('recurring', { type: 'RecurringTriggerNode', data: { label: 'API', attributeMapping: [] } });
  const res = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
  expect(res.json()).toMatchObject({ success: true, status: 'active' });
  return { id, key: res.json().triggerKey as string };
}

beforeAll(async () => {
  ta = await buildTestApp({ rateLimits: { ...testConfig().rateLimits, triggerCallsPer10s: triggerLimit } });
  admin = await ta.newAdmin('Settings Shop');
  await allowUsMarketing(ta, admin);
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  accountId = res.json().id;
  expect((await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'batch', format: 'text', workspaceId: admin.workspaceId } })).statusCode).toBe(201);
  const tpl = await ta.call('POST', '/whatsapp-template', {
    token: admin.token,
    body: { name: 'hello_all', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hello, our sale starts today!' }], whatsappAccountId: accountId, workspaceId: admin.workspaceId },
  });
  expect(tpl.statusCode, tpl.body).toBe(201);
  templateId = tpl.json().id;
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
}, 180_000);
afterAll(async () => {
  await ta?.close();
});

describe('campaign settings', () => {
  it('a new workspace skips marketing templates to US numbers (Meta refuses them); an admin turns it off', async () => {
    const fresh = await ta.newAdmin('Fresh Shop');
    const path = `/workspace/${fresh.workspaceId}/campaign-settings`;
    expect((await ta.call('GET', path, { token: fresh.token })).json()).toMatchObject({ skipUsMarketing: true });
    const off = await ta.call('PATCH', path, { token: fresh.token, body: { skipUsMarketing: false } });
    expect(off.json()).toMatchObject({ skipUsMarketing: false });
    const [row] = await ta.db.select({ skip: t.workspaces.skipUsMarketing }).from(t.workspaces).where(eq(t.workspaces.id, fresh.workspaceId));
    expect(row.skip).toBe(false);
  });

  it('an admin sets keywords, confirmation and time zone; agents read them; a bad zone is refused; the keyword opts out', async () => {
    const path = `/workspace/${admin.workspaceId}/campaign-settings`;
    const before = await ta.call('GET', path, { token: admin.token });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ optOutKeywords: [], timeZone: 'UTC' });

    const bad = await ta.call('PATCH', path, { token: admin.token, body: { timeZone: 'Mars/Olympus' } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().message)).toContain('Enter a time zone such as Europe/Paris');

    const saved = await ta.call('PATCH', path, {
      token: admin.token,
      body: { optOutKeywords: ['arret', 'ARRET', 'baja'], timeZone: 'Europe/Paris', optOutConfirmation: 'Unsubscribed. Reply START to come back.' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ optOutKeywords: ['ARRET', 'BAJA'], timeZone: 'Europe/Paris', optOutConfirmation: 'Unsubscribed. Reply START to come back.', skipUsMarketing: false });
    const [ws] = await ta.db.select().from(t.workspaces).where(eq(t.workspaces.id, admin.workspaceId));
    expect(ws).toMatchObject({ optOutKeywords: ['ARRET', 'BAJA'], timeZone: 'Europe/Paris' });

    const agent = await ta.newMember(admin, 'agent');
    expect((await ta.call('GET', path, { token: agent.token })).json().timeZone).toBe('Europe/Paris');
    expect((await ta.call('PATCH', path, { token: agent.token, body: { timeZone: 'UTC' } })).statusCode).toBe(403);

    // A customer who writes the workspace's own keyword (any case) is opted out and gets the confirmation.
    const waId = '14155559876';
    await ta.sandbox.customers.say(waId, ' Arret ', { phoneNumberId: number.phoneNumberId });
    await ta.app.parley.jobs.drain();
    await until(async () => {
      const [c] = await ta.db.select().from(t.contacts).where(and(eq(t.contacts.workspaceId, admin.workspaceId), eq(t.contacts.phoneNumber, `+${waId}`)));
      return !!c?.optedOutAt;
    }, 30_000);
    await until(() => ta.sandbox.sent.some((m) => m.waId === waId && JSON.stringify(m.body).includes('Unsubscribed. Reply START to come back.')), 30_000);
  }, 120_000);
});

describe('trigger key rate limit', () => {
  it('a key may make 100 calls per 10 s unless configured otherwise', () => {
    expect(loadConfig({} as NodeJS.ProcessEnv).rateLimits.triggerCallsPer10s).toBe(100);
  });

  it('takes the limit of calls per 10 s per key over HTTP, then answers 429 with Retry-After; another key still goes', async () => {
    const first = await deployRecurring();
    const second = await deployRecurring();
    const base = await ta.app.listen({ host: '127.0.0.1', port: 0 });
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const call = (c: { id: string; key: string }, phone: string) =>
      fetch(`${base}/outbound/${c.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-parley-key': c.key },
        body: JSON.stringify([{ phone }]),
      });

    // The limit's calls at once whose records are rejected one by one (the calls count, nothing is queued), then
    // one with a real customer: over the limit, refused, and being refused it queues nothing. This app's limit is
    // lowered so the window is filled in well under 10 s on a busy machine (its default, 100, is checked above and
    // the window's arithmetic with a clock in campaign-keys-windows.test.ts).
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: triggerLimit }, () => call(first, 'not a phone')));
    expect(answers.map((a) => a.status)).toEqual(Array(triggerLimit).fill(200));
    expect(Date.now() - started, 'the calls must fit in one 10 s window').toBeLessThan(10_000);
    const limited = await call(first, '+16505550142');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect((await limited.json()).message).toMatch(/Too many calls with this trigger key/);
    // The refused call queued nothing: that customer was not even created.
    expect(await ta.db.select().from(t.contacts).where(eq(t.contacts.phoneNumber, '+16505550142'))).toEqual([]);

    const other = await call(second, '+16505550143');
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ queued: 1 });
  }, 120_000);
});

describe('a trigger call racing a pause', () => {
  it('either commits before the pause (its run is paused with the campaign) or answers 409 and queues nothing; nothing goes out after the pause', async () => {
    const c = await deployRecurring();
    const phones = Array.from({ length: 1000 }, (_, i) => `+1650777${String(i).padStart(4, '0')}`);
    const trigger = ta.call('POST', `/outbound/${c.id}`, { headers: { 'x-parley-key': c.key }, body: phones.map((phone) => ({ phone })) });
    await new Promise((r) => setTimeout(r, 100));
    const paused = await ta.call('POST', `/campaign/${c.id}/pause`, { token: admin.token, body: {} });
    const sentTo = () => phones.filter((p) => ta.sandbox.deliveries(number.phoneNumberId).perRecipient[p.slice(1)]).length;
    // What had been handed over when the pause answered may still arrive; nothing else.
    const handedOver = (await ta.db.select().from(t.outboundSends).where(and(eq(t.outboundSends.workspaceId, admin.workspaceId), eq(t.outboundSends.status, 'claimed')))).length;
    const atPause = sentTo();
    const triggered = await trigger;
    expect(paused.statusCode, paused.body).toBe(200);
    expect([200, 409]).toContain(triggered.statusCode);
    const runs = await runsOf(c.id);
    expect(runs.filter((r) => r.status === 'running')).toEqual([]);
    if (triggered.statusCode === 200) expect(runs.map((r) => r.status)).toEqual(['paused']);
    else expect(runs).toEqual([]);
    expect((await campaignRow(c.id)).status).toBe('paused');
    // The runner is running: a run left running would be sent now.
    await new Promise((r) => setTimeout(r, 2000));
    expect(sentTo()).toBeLessThanOrEqual(atPause + handedOver);
  }, 120_000);
});

describe('scheduled start', () => {
  it('stays scheduled and is listed so, can be cancelled, and the scheduler starts it when due', async () => {
    const segmentId = await segmentOf('S', 3);
    const id = await newCampaign('oneTime', { type: 'OneTimeTriggerNode', data: { label: 'Start', segmentId } });
    const later = new Date(Date.now() + 3600_000).toISOString();
    const deployed = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: { startAt: later } });
    expect(deployed.statusCode, deployed.body).toBe(200);
    expect(deployed.json()).toMatchObject({ success: true, status: 'scheduled' });
    expect((await campaignRow(id)).scheduledAt?.toISOString()).toBe(later);
    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/campaigns`, { token: admin.token });
    expect(list.json().items.find((c: { id: string }) => c.id === id)).toMatchObject({ status: 'scheduled', scheduledAt: later });
    expect(await runsOf(id)).toEqual([]);

    const cancelled = await ta.call('POST', `/campaign/${id}/cancel-schedule`, { token: admin.token, body: {} });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'draft', scheduledAt: null });
    expect((await ta.call('POST', `/campaign/${id}/cancel-schedule`, { token: admin.token, body: {} })).statusCode).toBe(409);

    // Deployed again for a few seconds from now: the queued `campaigns.due` job starts it then, and it runs.
    const soon = new Date(Date.now() + 3000);
    expect((await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: { startAt: soon.toISOString() } })).json().status).toBe('scheduled');
    await until(async () => (await campaignRow(id)).status !== 'scheduled', 60_000);
    expect(Date.now()).toBeGreaterThanOrEqual(soon.getTime() - 50);
    await until(async () => (await campaignRow(id)).status === 'completed');
    expect(await runsOf(id)).toHaveLength(1);
    expect(ta.sandbox.deliveries(number.phoneNumberId).duplicates).toBe(0);
  }, 120_000);

  it('is claimed once when two schedulers run at the same moment', async () => {
    const segmentId = await segmentOf('T', 4);
    const id = await newCampaign('oneTime', { type: 'OneTimeTriggerNode', data: { label: 'Start', segmentId } });
    await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: { startAt: new Date(Date.now() + 3600_000).toISOString() } });
    // Its time comes (as if the clock moved on): two claimers run at once, as two processes' jobs would.
    await ta.db.update(t.campaigns).set({ scheduledAt: new Date(Date.now() - 1000) }).where(eq(t.campaigns.id, id));
    const campaigns = ta.app.parley.services.campaigns;
    await Promise.all([campaigns.runDue(), campaigns.runDue(), campaigns.runDue()]);
    expect(await runsOf(id)).toHaveLength(1);
    await until(async () => (await campaignRow(id)).status === 'completed');
    const recipients = await ta.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.campaignId, id));
    expect(recipients).toHaveLength(4);
    const delivered = ta.sandbox.deliveries(number.phoneNumberId);
    expect(delivered.duplicates).toBe(0);
    for (const r of recipients) {
      const [c] = await ta.db.select().from(t.contacts).where(eq(t.contacts.id, r.contactId));
      expect(delivered.perRecipient[c.phoneNumber!.slice(1)]).toBe(1);
    }
  }, 120_000);
});

describe('retarget', () => {
  it('a new campaign for exactly the recipients that failed with 131026 sends to them and nobody else', async () => {
    const segmentId = await segmentOf('R', 6);
    const id = await newCampaign('oneTime', { type: 'OneTimeTriggerNode', data: { label: 'Start', segmentId } });
    ta.sandbox.injectFailure({ code: 131026, count: 2 });
    expect((await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} })).statusCode).toBe(200);
    await until(async () => (await campaignRow(id)).status === 'completed');
    const logs = await ta.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.campaignId, id));
    const failed = logs.filter((l) => l.errorCode === 131026).map((l) => l.phoneNumber).sort();
    expect(failed).toHaveLength(2);

    const res = await ta.call('POST', `/campaign/${id}/retarget`, { token: admin.token, body: { outcome: 'failed', errorCode: 131026, name: 'Again, 131026' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Again, 131026', type: 'oneTime', status: 'draft' });
    const retargetId = res.json().id as string;
    const before = ta.sandbox.deliveries(number.phoneNumberId).perRecipient;
    const sentBefore = Object.fromEntries(logs.map((l) => [l.phoneNumber, before[l.phoneNumber.slice(1)] ?? 0]));
    expect((await ta.call('POST', `/campaign/${retargetId}/deploy`, { token: admin.token, body: {} })).statusCode).toBe(200);
    await until(async () => (await campaignRow(retargetId)).status === 'completed');
    const again = await ta.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.campaignId, retargetId));
    expect(again.map((l) => l.phoneNumber).sort()).toEqual(failed);
    expect(again.every((l) => l.messageStatus === 'success')).toBe(true);
    const after = ta.sandbox.deliveries(number.phoneNumberId).perRecipient;
    for (const l of logs) expect(after[l.phoneNumber.slice(1)] ?? 0).toBe(sentBefore[l.phoneNumber] + (failed.includes(l.phoneNumber) ? 1 : 0));
  }, 120_000);
});

describe('opted out as a segment filter', () => {
  it('selects the contacts that opted out of campaigns, or those that did not; other operators are refused', async () => {
    const [out, stays] = await ta.db
      .insert(t.contacts)
      .values([
        { workspaceId: admin.workspaceId, phoneNumber: '+14155558801', name: 'Leaves', attributes: { batch: 'Q' } },
        { workspaceId: admin.workspaceId, phoneNumber: '+14155558802', name: 'Stays', attributes: { batch: 'Q' } },
      ])
      .returning();
    expect((await ta.call('PATCH', `/contact/${out.id}`, { token: admin.token, body: { optedOut: true } })).statusCode).toBe(200);
    const preview = (optedOut: string, operator = 'IS') =>
      ta.call('POST', `/workspace/${admin.workspaceId}/segments/preview`, {
        token: admin.token,
        body: {
          filters: [
            { column: 'batch', operator: 'IS', value: 'Q', conjuction: 'AND' },
            { column: 'optedOut', operator, value: optedOut, conjuction: 'AND' },
          ],
        },
      });
    const yes = await preview('true');
    expect(yes.statusCode, yes.body).toBe(200);
    expect(yes.json().count).toBe(1);
    expect(yes.json().items.map((c: { id: string }) => c.id)).toEqual([out.id]);
    expect((await preview('false')).json().items.map((c: { id: string }) => c.id)).toEqual([stays.id]);
    expect((await preview('true', 'IS_NOT')).json().items.map((c: { id: string }) => c.id)).toEqual([stays.id]);
    const bad = await preview('yes', 'CONTAINS');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().message)).toContain('Filter on optedOut: use is or is not with true or false');
  });
});
