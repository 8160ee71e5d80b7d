/**
 * WhatsApp's account-level refusals and the portfolio's messaging limit in running campaigns, against the
 * sandbox: a template's refusal (132015) halts every running campaign of that template and no other; a number's
 * (131031) every campaign of that number; each shows the code and Meta's words, the admins are e-mailed, the
 * recipients not sent stay pending and resume sends them exactly once. With a portfolio limit of N, campaigns on
 * two numbers of one workspace reach at most N unique customers in 24 hours, the rest wait with the reason on
 * their campaign, and go once the moving 24 hours make room.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { until } from '../support/until';

let ta: TestApp;

/** A workspace with its admin, WhatsApp numbers and the attribute segments pick contacts by. */
interface Shop {
  admin: Session;
  numbers: { id: string; phoneNumberId: string }[];
  batchAttributeId: string;
}

async function newShop(name: string, numbers: number): Promise<Shop> {
  const admin = await ta.newAdmin(name);
  const out: Shop['numbers'] = [];
  for (let i = 0; i < numbers; i++) {
    const number = ta.sandbox.addAccount();
    const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
    expect(res.statusCode, res.body).toBe(201);
    out.push({ id: res.json().id, phoneNumberId: number.phoneNumberId });
  }
  const attr = await ta.call('POST', '/attribute', { token: admin.token, body: { name: 'batch', format: 'text', workspaceId: admin.workspaceId } });
  expect(attr.statusCode).toBe(201);
  return { admin, numbers: out, batchAttributeId: attr.json().id };
}

async function approvedTemplate(shop: Shop, accountId: string, name: string) {
  const res = await ta.call('POST', '/whatsapp-template', {
    token: shop.admin.token,
    body: { name, language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: `News from ${name}` }], whatsappAccountId: accountId, workspaceId: shop.admin.workspaceId },
  });
  expect(res.statusCode, res.body).toBe(201);
  await ta.sandbox.settle();
  await ta.app.parley.jobs.drain();
  await until(async () => (await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, res.json().id)))[0].status === 'APPROVED');
  return res.json().id as string;
}

let phoneSeq = 0;
/** Contacts tagged `batch` (a segment of them is a campaign's audience), with phone numbers of their own. */
async function addContacts(shop: Shop, n: number, batch: string) {
  const rows = Array.from({ length: n }, (_, i) => ({
    workspaceId: shop.admin.workspaceId,
    phoneNumber: `+4420${String(71_000_000 + phoneSeq++).padStart(8, '0')}`,
    name: `Customer ${batch} ${i}`,
    attributes: { batch },
  }));
  return ta.db.insert(t.contacts).values(rows).returning();
}

/** A one-time campaign for the contacts of `batch`: optionally a delay first, then one send. */
async function deployCampaign(shop: Shop, o: { batch: string; accountId: string; templateId: string; delayFirst?: boolean }) {
  const token = shop.admin.token;
  const seg = await ta.call('POST', '/segment', {
    token,
    body: { name: `Batch ${o.batch}`, filters: [{ column: 'batch', operator: 'IS', value: o.batch, conjuction: 'AND' }], workspaceId: shop.admin.workspaceId },
  });
  expect(seg.statusCode, seg.body).toBe(201);
  const send = { id: 'send', type: 'SendWhatsappNode', position: { x: 0, y: 200 }, data: { label: 'Send', whatsappAccountId: o.accountId, whatsappTemplateId: o.templateId, variables: [] } };
  const delay = { id: 'wait', type: 'DelayNode', position: { x: 0, y: 100 }, data: { label: 'Wait', waitFor: 1, waitForUnit: 'hours' } };
  const trigger = { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId: seg.json().id } };
  const rfInstance = o.delayFirst
    ? { nodes: [trigger, delay, send], edges: [{ id: 'e1', source: 'trigger', target: 'wait' }, { id: 'e2', source: 'wait', target: 'send' }], viewport: { x: 0, y: 0, zoom: 1 } }
    : { nodes: [trigger, send], edges: [{ id: 'e1', source: 'trigger', target: 'send' }], viewport: { x: 0, y: 0, zoom: 1 } };
  const created = await ta.call('POST', '/campaign', { token, body: { workspaceId: shop.admin.workspaceId, type: 'oneTime', name: `Campaign ${o.batch}` } });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  expect((await ta.call('PATCH', `/campaign/${id}`, { token, body: { rfInstance } })).statusCode).toBe(200);
  const deployed = await ta.call('POST', `/campaign/${id}/deploy`, { token, body: {} });
  expect(deployed.statusCode, deployed.body).toBe(200);
  return id;
}

const campaignRow = async (id: string) => (await ta.db.select().from(t.campaigns).where(eq(t.campaigns.id, id)))[0];
const recipientsOf = (id: string) => ta.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.campaignId, id));
/** Messages the sandbox accepted for these contacts, per phone number (without the plus). */
const deliveredTo = (phones: (string | null)[]) => {
  const wanted = new Set(phones.map((p) => p!.slice(1)));
  const per = new Map<string, number>();
  for (const m of ta.sandbox.sent) if (wanted.has(m.waId)) per.set(m.waId, (per.get(m.waId) ?? 0) + 1);
  return per;
};
const uniq = () => randomUUID().slice(0, 6);

beforeAll(async () => {
  ta = await buildTestApp();
}, 180_000);
afterAll(async () => {
  await ta?.close();
});

describe('account-level refusals halt every running campaign they concern', () => {
  let shop: Shop;
  let secondAdmin: Session;
  let agent: Session;
  let sale = '';
  let other = '';
  let third = '';
  let elsewhere = '';

  beforeAll(async () => {
    shop = await newShop('Halting Shop', 2);
    secondAdmin = await ta.newMember(shop.admin, 'admin');
    agent = await ta.newMember(shop.admin, 'agent');
    sale = await approvedTemplate(shop, shop.numbers[0].id, `sale_${uniq()}`);
    other = await approvedTemplate(shop, shop.numbers[0].id, `other_${uniq()}`);
    third = await approvedTemplate(shop, shop.numbers[0].id, `third_${uniq()}`);
    elsewhere = await approvedTemplate(shop, shop.numbers[1].id, `elsewhere_${uniq()}`);
  }, 180_000);

  it('132015 on campaign A halts campaign B of the same template, not campaign C of another; A resumed sends its recipients once', async () => {
    const [n1] = shop.numbers;
    const inB = await addContacts(shop, 2, 'tpl-B');
    await addContacts(shop, 2, 'tpl-C');
    const inA = await addContacts(shop, 3, 'tpl-A');
    // B and C are running, their recipients at a delay; then Meta pauses the template (its webhook not here yet).
    const b = await deployCampaign(shop, { batch: 'tpl-B', accountId: n1.id, templateId: sale, delayFirst: true });
    const c = await deployCampaign(shop, { batch: 'tpl-C', accountId: n1.id, templateId: other, delayFirst: true });
    await until(async () => [...(await recipientsOf(b)), ...(await recipientsOf(c))].filter((r) => r.status === 'waiting').length === 4);
    const saleName = await templateName(sale);
    const saleAtMeta = ta.sandbox.templates.find((x) => x.name === saleName)!;
    saleAtMeta.status = 'PAUSED';

    const a = await deployCampaign(shop, { batch: 'tpl-A', accountId: n1.id, templateId: sale });
    await until(async () => (await campaignRow(a)).status === 'paused');
    const halted = await campaignRow(a);
    expect(halted.haltCode).toBe(132015);
    expect(halted.haltReason).toMatch(/paused because of low quality/);
    // B (same template) is halted at once with the same code and words, though none of its sends was refused.
    expect(await campaignRow(b)).toMatchObject({ status: 'paused', haltCode: 132015, haltReason: halted.haltReason });
    // C (another template of the same number) goes on.
    expect(await campaignRow(c)).toMatchObject({ status: 'inProgress', haltCode: null });
    // Nothing reached A's or B's customers; their recipients wait.
    expect(deliveredTo([...inA, ...inB].map((x) => x.phoneNumber)).size).toBe(0);
    expect((await recipientsOf(a)).map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    expect((await recipientsOf(b)).every((r) => r.status === 'waiting')).toBe(true);
    // The wire shows the halt on each campaign.
    const shown = await ta.call('GET', `/campaign/${b}`, { token: shop.admin.token });
    expect(shown.json().halt).toMatchObject({ code: 132015, reason: halted.haltReason });

    // The admins (both, not the agent) are told once, naming the template, both campaigns and Meta's words.
    const haltMails = (code: number) => ta.app.parley.mailer.outbox.filter((m) => m.subject.includes(`(${code})`) && m.subject.startsWith('Halting Shop'));
    await until(() => haltMails(132015).length >= 2);
    const mails = haltMails(132015);
    expect(mails.map((m) => m.to).sort()).toEqual([shop.admin.email, secondAdmin.email].sort());
    expect(mails[0].text).toContain('"Campaign tpl-A"');
    expect(mails[0].text).toContain('"Campaign tpl-B"');
    expect(mails[0].text).not.toContain('tpl-C');
    expect(mails[0].text).toContain(halted.haltReason!);
    expect(ta.app.parley.mailer.outbox.some((m) => m.to === agent.email && m.subject.includes('halted'))).toBe(false);

    // Meta approves the template again; A resumed sends each of its customers exactly once.
    saleAtMeta.status = 'APPROVED';
    const resumed = await ta.call('POST', `/campaign/${a}/resume`, { token: shop.admin.token, body: {} });
    expect(resumed.statusCode, resumed.body).toBe(200);
    await until(async () => (await campaignRow(a)).status === 'completed');
    expect((await campaignRow(a)).haltCode).toBeNull();
    expect([...deliveredTo(inA.map((x) => x.phoneNumber)).values()]).toEqual([1, 1, 1]);
  }, 180_000);

  it('131031 halts every running campaign of that number and none of another number', async () => {
    const [n1, n2] = shop.numbers;
    await addContacts(shop, 2, 'num-D');
    await addContacts(shop, 2, 'num-F');
    const inG = await addContacts(shop, 2, 'num-G');
    const d = await deployCampaign(shop, { batch: 'num-D', accountId: n1.id, templateId: third, delayFirst: true });
    const f = await deployCampaign(shop, { batch: 'num-F', accountId: n2.id, templateId: elsewhere, delayFirst: true });
    await until(async () => [...(await recipientsOf(d)), ...(await recipientsOf(f))].filter((r) => r.status === 'waiting').length === 4);
    ta.sandbox.injectFailure({ code: 131031, count: 1, details: 'Business account is locked: two-step verification PIN mismatch' });
    const g = await deployCampaign(shop, { batch: 'num-G', accountId: n1.id, templateId: other });
    await until(async () => (await campaignRow(g)).status === 'paused');
    const words = 'Business account is locked: two-step verification PIN mismatch';
    expect(await campaignRow(g)).toMatchObject({ haltCode: 131031, haltReason: words });
    expect(await campaignRow(d)).toMatchObject({ status: 'paused', haltCode: 131031, haltReason: words });
    expect(await campaignRow(f)).toMatchObject({ status: 'inProgress', haltCode: null });
    const haltMails = () => ta.app.parley.mailer.outbox.filter((m) => m.subject.includes('(131031)') && m.subject.startsWith('Halting Shop'));
    await until(() => haltMails().length >= 2);
    const mails = haltMails();
    expect(mails.map((m) => m.to).sort()).toEqual([shop.admin.email, secondAdmin.email].sort());
    expect(mails[0].text).toContain('"Campaign num-D"');
    expect(mails[0].text).toContain('"Campaign num-G"');

    // The refused recipient stayed pending (one of G's may have gone before the halt): resume sends the rest once.
    const resumed = await ta.call('POST', `/campaign/${g}/resume`, { token: shop.admin.token, body: {} });
    expect(resumed.statusCode).toBe(200);
    await until(async () => (await campaignRow(g)).status === 'completed');
    expect([...deliveredTo(inG.map((x) => x.phoneNumber)).values()]).toEqual([1, 1]);
  }, 180_000);
});

/** The name of a template row (the sandbox knows templates by name). */
async function templateName(templateId: string): Promise<string> {
  return (await ta.db.select().from(t.whatsappTemplates).where(eq(t.whatsappTemplates.id, templateId)))[0].name;
}

describe("the portfolio's messaging limit", () => {
  it('campaigns on two numbers reach at most N unique customers in 24 hours; the rest wait with the reason and go once the window moves', async () => {
    const shop = await newShop('Portfolio Shop', 2);
    const [n1, n2] = shop.numbers;
    const t1 = await approvedTemplate(shop, n1.id, `one_${uniq()}`);
    const t2 = await approvedTemplate(shop, n2.id, `two_${uniq()}`);
    // Meta's health read stored the portfolio's limit on both numbers (a small tier keeps the test short).
    await ta.db.update(t.whatsappAccounts).set({ portfolioMessagingLimit: 'TIER_5', healthUpdatedAt: new Date() }).where(eq(t.whatsappAccounts.workspaceId, shop.admin.workspaceId));
    const inX = await addContacts(shop, 4, 'pf-X');
    const inY = await addContacts(shop, 4, 'pf-Y');
    const x = await deployCampaign(shop, { batch: 'pf-X', accountId: n1.id, templateId: t1 });
    const y = await deployCampaign(shop, { batch: 'pf-Y', accountId: n2.id, templateId: t2 });
    const everyone = [...inX, ...inY].map((c) => c.phoneNumber);

    await until(async () => {
      const rows = [...(await recipientsOf(x)), ...(await recipientsOf(y))];
      return rows.length === 8 && rows.filter((r) => r.status === 'done').length === 5 && rows.filter((r) => r.status === 'pending').length === 3;
    });
    // Give the runner time to (wrongly) send more.
    await new Promise((r) => setTimeout(r, 1500));
    expect(deliveredTo(everyone).size).toBe(5);
    const held = [...(await recipientsOf(x)), ...(await recipientsOf(y))].filter((r) => r.status === 'pending');
    expect(held).toHaveLength(3);
    // They come back when the oldest send of the 24 hours leaves it, not before.
    for (const r of held) expect(r.nextAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // The reason is a status of the campaign that holds them, not a failure.
    const holders = [...new Set(held.map((r) => r.campaignId!))];
    for (const id of holders) {
      const shown = (await ta.call('GET', `/campaign/${id}`, { token: shop.admin.token })).json();
      expect(shown.status).toBe('inProgress');
      expect(shown.hold.reason).toMatch(/business portfolio's messaging limit \(5 customers in 24 hours/);
      const counts = (await ta.call('GET', `/campaign/${id}/results`, { token: shop.admin.token })).json().counts;
      expect(counts.failed).toBe(0);
    }

    // A day passes: the sends are 24 hours old and the held recipients are due.
    await ta.db
      .update(t.outboundSends)
      .set({ claimedAt: new Date(Date.now() - 24 * 3600_000 - 60_000) })
      .where(eq(t.outboundSends.workspaceId, shop.admin.workspaceId));
    await ta.db.update(t.campaignRecipients).set({ nextAt: new Date() }).where(and(inArray(t.campaignRecipients.id, held.map((r) => r.id)), eq(t.campaignRecipients.status, 'pending')));
    await until(async () => (await campaignRow(x)).status === 'completed' && (await campaignRow(y)).status === 'completed');
    const delivered = deliveredTo(everyone);
    expect(delivered.size).toBe(8);
    expect([...delivered.values()].every((n) => n === 1)).toBe(true);
    for (const id of holders) expect((await campaignRow(id)).holdReason).toBeNull();
  }, 180_000);
});
