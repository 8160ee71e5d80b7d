/**
 * Campaigns end to end against the sandbox: deploy's checks, the runner (every recipient exactly
 * once, mapped variables, logs, counts, completion), status webhooks moving logs forward only, locked steps,
 * pause and resume, Meta's refusals (131056 retried, 131026 final), opt-out by STOP and back by an agent, the
 * recurring trigger with its key (per-record results, 409 when paused, 429 beyond the rate), logs and CSV.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { allowUsMarketing } from '../support/us-marketing';
import { until } from '../support/until';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;
let accountId: string;
let templateId: string;
let followUpId: string;
let segmentId: string;
let cityAttributeId: string;
/** The first one-time campaign: 30 recipients, one send each. */
let sentCampaignId: string;

async function approvedTemplate(name: string, text: string, example: string[]) {
  const res = await ta.call('POST', '/whatsapp-template', {
    token: admin.token,
    body: {
      name,
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text, ...(example.length ? { example: { body_text: [example] } } : {}) }],
      whatsappAccountId: accountId,
      workspaceId: admin.workspaceId,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
  return res.json().id as string;
}

let phoneSeq = 0;
async function addContacts(n: number, tag: string) {
  const rows = Array.from({ length: n }, (_, i) => ({
    workspaceId: admin.workspaceId,
    phoneNumber: `+1415${String(5_000_000 + phoneSeq++ * 1 + i * 0).padStart(7, '0')}`,
    name: `Customer ${i}`,
    attributes: { city: `City ${i}`, batch: tag },
  }));
  return ta.db.insert(t.contacts).values(rows).returning();
}

function oneTimeCanvas(steps: { type: 'send' | 'delay'; templateId?: string; hours?: number }[], trigger: Record<string, unknown> = { segmentId }) {
  const nodes: Record<string, unknown>[] = [{ id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', ...trigger } }];
  const edges: Record<string, unknown>[] = [];
  steps.forEach((s, i) => {
    const id = `step${i}`;
    nodes.push(
      s.type === 'send'
        ? {
            id,
            type: 'SendWhatsappNode',
            position: { x: 0, y: 100 * (i + 1) },
            data: {
              label: 'Send',
              whatsappAccountId: accountId,
              whatsappTemplateId: s.templateId,
              variables: [{ id: 'v1', component: 'BODY', variable: '1', source: 'attribute', value: cityAttributeId, fallback: 'friend' }],
            },
          }
        : { id, type: 'DelayNode', position: { x: 0, y: 100 * (i + 1) }, data: { label: 'Wait', waitFor: s.hours, waitForUnit: 'hours' } },
    );
    edges.push({ id: `e${i}`, source: i === 0 ? 'trigger' : `step${i - 1}`, target: id });
  });
  return { nodes, edges, viewport: { x: 0, y: 0, zoom: 1 } };
}

async function newCampaign(type: 'oneTime' | 'recurring', rfInstance: unknown) {
  const created = await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: admin.workspaceId, type, name: `C ${randomUUID().slice(0, 6)}` } });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  const patched = await ta.call('PATCH', `/campaign/${id}`, { token: admin.token, body: { rfInstance } });
  expect(patched.statusCode, patched.body).toBe(200);
  return id;
}

const campaignRow = async (id: string) => (await ta.db.select().from(t.campaigns).where(eq(t.campaigns.id, id)))[0];
const logsOf = (id: string) => ta.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.campaignId, id));

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Campaign Shop');
  await allowUsMarketing(ta, admin);
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
  accountId = res.json().id;
  const attr = await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'city', format: 'text', workspaceId: admin.workspaceId } });
  expect(attr.statusCode).toBe(201);
  cityAttributeId = attr.json().id;
  expect((await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'batch', format: 'text', workspaceId: admin.workspaceId } })).statusCode).toBe(201);
  templateId = await approvedTemplate('spring_sale', 'Hello from {{1}}: spring sale!', ['Paris']);
  followUpId = await approvedTemplate('spring_reminder', 'Last day of the sale in {{1}}', ['Paris']);
  const seg = await ta.call('POST', '/segment', {
    token: admin.token,
    body: { name: 'Batch A', filters: [{ column: 'batch', operator: 'IS', value: 'A', conjuction: 'AND' }], workspaceId: admin.workspaceId },
  });
  expect(seg.statusCode, seg.body).toBe(201);
  segmentId = seg.json().id;
}, 180_000);
afterAll(async () => {
  await ta?.close();
});

describe('deploy', () => {
  it('answers 400 listing every problem of the canvas, and changes nothing', async () => {
    const id = await newCampaign('oneTime', {
      nodes: [
        { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId: '' } },
        { id: 'send', type: 'SendWhatsappNode', position: { x: 0, y: 100 }, data: { label: 'Send' } },
        { id: 'wait', type: 'DelayNode', position: { x: 0, y: 200 }, data: { label: 'Wait', waitFor: 2000, waitForUnit: 'days' } },
      ],
      edges: [{ id: 'e1', source: 'trigger', target: 'send' }],
    });
    const res = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('Bad Request');
    expect(body.message).toEqual(
      expect.arrayContaining([
        'Select audience segment!',
        'Choose a WhatsApp number and a template: This field cannot be empty',
        'This step is not connected to the trigger',
        'A delay can be at most 30 days',
      ]),
    );
    expect((await campaignRow(id)).status).toBe('draft');
  });

  it('refuses a template variable left unmapped', async () => {
    const rf = oneTimeCanvas([{ type: 'send', templateId }]);
    (rf.nodes[1].data as { variables: unknown[] }).variables = [];
    const id = await newCampaign('oneTime', rf);
    const res = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(['Map {{1}} in the body to a contact field, an attribute or fixed text']);
  });
});

describe('a one-time campaign', () => {
  it('sends every recipient exactly once with its mapped variable, logs each, follows status webhooks and completes', async () => {
    const contacts = await addContacts(30, 'A');
    const id = await newCampaign('oneTime', oneTimeCanvas([{ type: 'send', templateId }]));
    sentCampaignId = id;
    const res = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, status: 'inProgress' });

    await until(async () => (await campaignRow(id)).status === 'completed');
    const logs = await logsOf(id);
    expect(logs).toHaveLength(30);
    expect(new Set(logs.map((l) => l.phoneNumber))).toEqual(new Set(contacts.map((c) => c.phoneNumber)));
    expect(logs.every((l) => l.messageStatus === 'success' && l.templateName === 'spring_sale' && l.waMessageId)).toBe(true);

    const delivered = ta.sandbox.deliveries(number.phoneNumberId);
    expect(delivered.duplicates).toBe(0);
    for (const c of contacts) expect(delivered.perRecipient[c.phoneNumber!.slice(1)]).toBe(1);
    const sent = ta.sandbox.sent.find((m) => m.waId === contacts[3].phoneNumber!.slice(1))!;
    expect(JSON.stringify(sent.body)).toContain('City 3');

    // The sandbox reports sent, delivered, read: the log lines follow, and a late `delivered` does not undo `read`.
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();
    await until(async () => (await logsOf(id)).every((l) => l.deliveryState === 'read'));
    const results = await ta.call('GET', `/campaign/${id}/results`, { token: admin.token });
    expect(results.json().counts).toMatchObject({ recipients: 30, sent: 30, delivered: 30, read: 30, failed: 0, unknown: 0, pending: 0 });

    const list = await ta.call('GET', `/workspace/${admin.workspaceId}/campaigns`, { token: admin.token });
    const entry = list.json().items.find((c: { id: string }) => c.id === id);
    expect(entry.counts).toMatchObject({ recipients: 30, read: 30 });
    expect(entry.status).toBe('completed');
  }, 180_000);

  it('marks its messages as the campaign’s: stored with the campaign id, shown with it in the conversation', async () => {
    const sent = await ta.db.select().from(t.messages).where(eq(t.messages.campaignId, sentCampaignId));
    expect(sent).toHaveLength(30);
    expect(sent.every((m) => m.creator === 'bot' && m.type === 'template')).toBe(true);
    const detail = await ta.call('GET', `/conversation/${sent[0].conversationId}`, { token: admin.token });
    expect(detail.statusCode, detail.body).toBe(200);
    const shown = (detail.json().Message as { id: string; campaignId: string | null }[]).find((m) => m.id === sent[0].id);
    expect(shown?.campaignId).toBe(sentCampaignId);
  }, 60_000);

  it('locks the steps once deployed (409 naming the reason) but lets the name change', async () => {
    const id = await newCampaign('oneTime', oneTimeCanvas([{ type: 'send', templateId }]));
    await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    const edited = oneTimeCanvas([{ type: 'send', templateId: followUpId }]);
    const res = await ta.call('PATCH', `/campaign/${id}`, { token: admin.token, body: { rfInstance: edited } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/steps cannot be edited once deployed/);
    const renamed = await ta.call('PATCH', `/campaign/${id}`, { token: admin.token, body: { name: 'Spring, renamed' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Spring, renamed');
    await until(async () => (await campaignRow(id)).status === 'completed');
  }, 180_000);

  it('completes a campaign whose segment matches nobody, sending nothing', async () => {
    const seg = await ta.call('POST', '/segment', {
      token: admin.token,
      body: { name: 'Nobody', filters: [{ column: 'batch', operator: 'IS', value: 'no-such-batch', conjuction: 'AND' }], workspaceId: admin.workspaceId },
    });
    const id = await newCampaign('oneTime', oneTimeCanvas([{ type: 'send', templateId }], { segmentId: seg.json().id }));
    const deployed = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    expect(deployed.statusCode, deployed.body).toBe(200);
    await until(async () => (await campaignRow(id)).status === 'completed', 30_000);
    expect(await logsOf(id)).toEqual([]);
  }, 60_000);

  it('waits at a delay (a due time in the database) and can be paused and resumed', async () => {
    const id = await newCampaign('oneTime', oneTimeCanvas([{ type: 'send', templateId }, { type: 'delay', hours: 1 }, { type: 'send', templateId: followUpId }]));
    await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    await until(async () => (await logsOf(id)).length >= 30);
    const recipients = await ta.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.campaignId, id));
    await until(async () => (await ta.db.select().from(t.campaignRecipients).where(and(eq(t.campaignRecipients.campaignId, id), eq(t.campaignRecipients.status, 'waiting')))).length === recipients.length);
    const waiting = await ta.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.campaignId, id));
    for (const r of waiting) expect(r.nextAt!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);

    const paused = await ta.call('POST', `/campaign/${id}/pause`, { token: admin.token, body: {} });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().status).toBe('paused');
    // The delay ends while paused: nothing is sent.
    await ta.db.update(t.campaignRecipients).set({ nextAt: new Date() }).where(eq(t.campaignRecipients.campaignId, id));
    await new Promise((r) => setTimeout(r, 1500));
    expect((await logsOf(id)).filter((l) => l.stepId === 'step2')).toHaveLength(0);
    const resumed = await ta.call('POST', `/campaign/${id}/resume`, { token: admin.token, body: {} });
    expect(resumed.json().status).toBe('inProgress');
    await until(async () => (await campaignRow(id)).status === 'completed');
    expect((await logsOf(id)).filter((l) => l.stepId === 'step2' && l.templateName === 'spring_reminder')).toHaveLength(30);
  }, 180_000);
});

describe("Meta's refusals", () => {
  it('retries a 131056 (pair rate) for that recipient alone, and ends a 131026 as failed with the reason', async () => {
    const seg = await ta.call('POST', '/segment', {
      token: admin.token,
      body: { name: 'Batch R', filters: [{ column: 'batch', operator: 'IS', value: 'R', conjuction: 'AND' }], workspaceId: admin.workspaceId },
    });
    await addContacts(2, 'R');
    const id = await newCampaign('oneTime', oneTimeCanvas([{ type: 'send', templateId }], { segmentId: seg.json().id }));
    ta.sandbox.injectFailure({ code: 131056, count: 1 });
    ta.sandbox.injectFailure({ code: 131026, count: 1 });
    await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    await until(async () => (await campaignRow(id)).status === 'completed');
    const logs = await logsOf(id);
    expect(logs).toHaveLength(2);
    const failed = logs.filter((l) => l.messageStatus === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].errorCode).toBe(131026);
    expect(failed[0].reason).toMatch(/not be on WhatsApp|could not be delivered/);
    expect(logs.filter((l) => l.messageStatus === 'success')).toHaveLength(1);
  }, 180_000);
});

describe('opt-out', () => {
  it('STOP opts the contact out, the next campaign skips it as opted out, an agent opts it back in', async () => {
    const [contact] = await addContacts(1, 'O');
    const seg = await ta.call('POST', '/segment', {
      token: admin.token,
      body: { name: 'Batch O', filters: [{ column: 'batch', operator: 'IS', value: 'O', conjuction: 'AND' }], workspaceId: admin.workspaceId },
    });
    await ta.sandbox.customers.say(contact.phoneNumber!.slice(1), '  stop ', { phoneNumberId: number.phoneNumberId });
    await ta.app.parley.jobs.drain();
    const listed = await ta.call('GET', `/workspace/${admin.workspaceId}/contacts`, { token: admin.token, query: { optedOut: 'true' } });
    expect(listed.json().items.map((c: { id: string }) => c.id)).toEqual([contact.id]);
    expect(listed.json().items[0].optedOut).toBe(true);

    const id = await newCampaign('oneTime', oneTimeCanvas([{ type: 'send', templateId }], { segmentId: seg.json().id }));
    await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    await until(async () => (await campaignRow(id)).status === 'completed');
    const [log] = await logsOf(id);
    expect(log).toMatchObject({ messageStatus: 'failed', reason: 'opted out (keyword)', deliveryState: 'optedOut' });
    expect(ta.sandbox.deliveries(number.phoneNumberId).perRecipient[contact.phoneNumber!.slice(1)]).toBe(1); // the confirmation only

    const back = await ta.call('PATCH', `/contact/${contact.id}`, { token: admin.token, body: { optedOut: false } });
    expect(back.statusCode).toBe(200);
    expect(back.json().optedOut).toBe(false);
  }, 180_000);
});

describe('a recurring campaign', () => {
  it('deploys active with a trigger key shown once; the key triggers per record; paused answers 409', async () => {
    const rf = oneTimeCanvas([{ type: 'send', templateId }]);
    rf.nodes[0] = { id: 'trigger', type: 'RecurringTriggerNode', position: { x: 0, y: 0 }, data: { label: 'API', attributeMapping: [{ id: 'm1', objectKey: 'town', attributeId: cityAttributeId }] } };
    const id = await newCampaign('recurring', rf);
    const deployed = await ta.call('POST', `/campaign/${id}/deploy`, { token: admin.token, body: {} });
    expect(deployed.json()).toMatchObject({ success: true, status: 'active' });
    const key = deployed.json().triggerKey as string;
    expect(key).toMatch(/^pk_/);
    expect((await campaignRow(id)).triggerKeyHash).not.toContain(key);

    const res = await ta.call('POST', `/outbound/${id}`, {
      headers: { 'x-parley-key': key },
      body: [{ phone: '+1 650 555 0199', town: 'Lyon' }, { phone: 'not a phone' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, queued: 1, rejected: 1 });
    expect(res.json().results[1]).toMatchObject({ index: 1, status: 'rejected' });
    await until(() => (ta.sandbox.deliveries(number.phoneNumberId).perRecipient['16505550199'] ?? 0) === 1);
    expect(JSON.stringify(ta.sandbox.sent.find((m) => m.waId === '16505550199')!.body)).toContain('Lyon');

    const wrong = await ta.call('POST', `/outbound/${id}`, { headers: { authorization: 'Bearer pk_wrong' }, body: [{ phone: '+16505550198' }] });
    expect(wrong.statusCode).toBe(401);
    await ta.call('POST', `/campaign/${id}/pause`, { token: admin.token, body: {} });
    const paused = await ta.call('POST', `/outbound/${id}`, { headers: { 'x-parley-key': key }, body: [{ phone: '+16505550198' }] });
    expect(paused.statusCode).toBe(409);

    const rotated = await ta.call('POST', `/campaign/${id}/trigger-key`, { token: admin.token, body: {} });
    expect(rotated.statusCode).toBe(201);
    const old = await ta.call('POST', `/outbound/${id}`, { headers: { 'x-parley-key': key }, body: [{ phone: '+16505550198' }] });
    expect(old.statusCode).toBe(401);
  }, 180_000);
});

describe('logs', () => {
  it('pages with a status filter and exports CSV', async () => {
    const done = { id: sentCampaignId };
    const first = await ta.call('GET', `/campaign/${done.id}/logs`, { token: admin.token, query: { limit: '20', status: 'read' } });
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toHaveLength(20);
    const second = await ta.call('GET', `/campaign/${done.id}/logs`, { token: admin.token, query: { limit: '20', status: 'read', cursor: first.json().nextCursor } });
    expect(second.json().items).toHaveLength(10);
    const none = await ta.call('GET', `/campaign/${done.id}/logs`, { token: admin.token, query: { status: 'failed' } });
    expect(none.json().items).toHaveLength(0);
    const csv = await ta.call('GET', `/campaign/${done.id}/logs.csv`, { token: admin.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('createdAt,phoneNumber,userId,username,templateName,messageStatus,deliveryState,reason,errorCode,wamid,repliedAt');
    expect(lines).toHaveLength(31);
  });
});
