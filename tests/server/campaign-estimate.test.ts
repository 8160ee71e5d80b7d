/**
 * Before deploy a campaign shows what it will cost: the admin uploads Meta's rate card (CSV: market, currency,
 * marketing, utility, authentication), and the campaign's recipients are priced by the country of their phone
 * numbers at their template's category; a template Meta moved to marketing is said before deploy.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace } from '../support/fixtures';
import { postWebhook } from '../support/sandbox-webhooks';

let ta: TestApp;
let admin: Session;
let agent: Session;
let s: Seeded;
let campaignId: string;
const metaId = '998877665544';

/** Meta's card as published, with a region row and columns Parley does not use. */
const metaCard = [
  '\uFEFFMarket,Currency,Marketing,Utility,Authentication,Authentication-International,Service',
  'Brazil,USD,0.0625,0.0068,0.0068,,0',
  'GB,USD,0.0529,0.0220,0.0358,,0',
  'Rest of Africa,USD,0.0225,0.0040,0.0040,,0',
  'Other,USD,0.0604,0.0077,0.0067,,0',
].join('\r\n');

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Estimate Shop');
  agent = await ta.newMember(admin, 'agent');
  s = await seedWorkspace(ta, admin);
  await ta.db.update(t.whatsappTemplates).set({ whatsappTemplateId: metaId }).where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
  // The seeded segment is "plan is gold": one US contact is seeded; add Brazil, Britain, Nigeria and one outside it.
  await ta.db.insert(t.contacts).values([
    { workspaceId: s.workspaceId, name: 'Bia', phoneNumber: '+5511987654321', attributes: { plan: 'gold' } },
    { workspaceId: s.workspaceId, name: 'Bruno', phoneNumber: '+5521987654321', attributes: { plan: 'gold' } },
    { workspaceId: s.workspaceId, name: 'Gwen', phoneNumber: '+442071838750', attributes: { plan: 'gold' } },
    { workspaceId: s.workspaceId, name: 'Ngozi', phoneNumber: '+2348031234567', attributes: { plan: 'gold' } },
    { workspaceId: s.workspaceId, name: 'Silvia', phoneNumber: '+5511912345678', attributes: { plan: 'silver' } },
  ]);
  const created = await ta.call('POST', '/campaign', { token: admin.token, body: { workspaceId: s.workspaceId, type: 'oneTime', name: 'Spring sale' } });
  campaignId = created.json().id;
  const rfInstance = {
    nodes: [
      { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId: s.ids.segment } },
      { id: 'send', type: 'SendWhatsappNode', position: { x: 0, y: 100 }, data: { label: 'Send', whatsappAccountId: s.ids.whatsappAccount, whatsappTemplateId: s.ids.whatsappTemplate, variables: [] } },
    ],
    edges: [{ id: 'e0', source: 'trigger', target: 'send' }],
    viewport: { x: 0, y: 0, zoom: 1 },
  };
  const patched = await ta.call('PATCH', `/campaign/${campaignId}`, { token: admin.token, body: { rfInstance } });
  expect(patched.statusCode, patched.body).toBe(200);
}, 300_000);
afterAll(async () => {
  await ta?.close();
});

const upload = (content: string, session = admin) =>
  ta.call('POST', `/workspace/${s.workspaceId}/rate-card`, { token: session.token, body: { fileName: 'meta-rates.csv', content } });
const estimate = async () => {
  const res = await ta.call('GET', `/campaign/${campaignId}/estimate`, { token: agent.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('the rate card', () => {
  it('is empty at first, and the estimate says an admin must upload one', async () => {
    expect((await ta.call('GET', `/workspace/${s.workspaceId}/rate-card`, { token: agent.token })).json()).toEqual({ rateCard: null });
    const e = await estimate();
    expect(e).toMatchObject({ recipients: 5, costs: [], unpriced: 5, rateCard: null });
    expect(e.warnings.join(' ')).toMatch(/No rate card yet/);
  });

  it("takes Meta's file as published: countries by name or code, Other for the rest, regions listed as ignored", async () => {
    const res = await upload(metaCard);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ fileName: 'meta-rates.csv', memberId: admin.member.id, ignoredMarkets: ['Rest of Africa'] });
    expect(res.json().rates).toEqual([
      { market: 'Brazil', country: 'BR', currency: 'USD', marketing: 0.0625, utility: 0.0068, authentication: 0.0068 },
      { market: 'GB', country: 'GB', currency: 'USD', marketing: 0.0529, utility: 0.022, authentication: 0.0358 },
      { market: 'Other', country: null, currency: 'USD', marketing: 0.0604, utility: 0.0077, authentication: 0.0067 },
    ]);
    expect((await ta.call('GET', `/workspace/${s.workspaceId}/rate-card`, { token: agent.token })).json().rateCard.rates).toHaveLength(3);
  });

  it('refuses a file with a missing column or a bad price, naming what is wrong, and keeps the card it had', async () => {
    const noAuth = await upload('Market,Currency,Marketing,Utility\nBrazil,USD,0.06,0.006\n');
    expect(noAuth.statusCode).toBe(400);
    expect(String(noAuth.json().message)).toMatch(/missing: authentication/);
    const badPrice = await upload('Market,Currency,Marketing,Utility,Authentication\nBrazil,USD,cheap,0.006,0.006\n');
    expect(badPrice.statusCode).toBe(400);
    expect(String(badPrice.json().message)).toMatch(/Line 2: marketing "cheap" is not a price/);
    const twice = await upload('Market,Currency,Marketing,Utility,Authentication\nBrazil,USD,1,1,1\nBR,USD,1,1,1\n');
    expect(String(twice.json().message)).toMatch(/Line 3: market "BR" appears twice/);
    expect((await ta.call('GET', `/workspace/${s.workspaceId}/rate-card`, { token: agent.token })).json().rateCard.fileName).toBe('meta-rates.csv');
    expect((await upload(metaCard, agent)).statusCode).toBe(403);
  });
});

describe("a campaign's estimate", () => {
  it("prices each recipient by their phone number's country at the template's category", async () => {
    const e = await estimate();
    expect(e.recipients).toBe(5);
    expect(e.steps).toEqual([{ stepId: 'send', templateId: s.ids.whatsappTemplate, templateName: 'order_update', category: 'UTILITY' }]);
    const byCountry = Object.fromEntries(e.byCountry.map((c: { country: string }) => [c.country, c]));
    expect(byCountry.BR).toEqual({ country: 'BR', market: 'Brazil', recipients: 2, currency: 'USD', cost: 0.0136 });
    expect(byCountry.GB).toEqual({ country: 'GB', market: 'GB', recipients: 1, currency: 'USD', cost: 0.022 });
    // No row of their own: the Other row.
    expect(byCountry.US).toMatchObject({ market: 'Other', recipients: 1, cost: 0.0077 });
    expect(byCountry.NG).toMatchObject({ market: 'Other', recipients: 1, cost: 0.0077 });
    expect(e.costs).toEqual([{ currency: 'USD', amount: 0.051 }]);
    expect(e.unpriced).toBe(0);
    expect(e.warnings).toEqual([]);
  });

  it('says before deploy that the template became marketing, and prices it so', async () => {
    const time = Math.floor(Date.now() / 1000);
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: (await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount)))[0].wabaAccountId, time, changes: [
        { field: 'template_category_update', value: { message_template_id: Number(metaId), message_template_name: 'order_update', message_template_language: 'en_US', previous_category: 'UTILITY', new_category: 'MARKETING' } },
      ] }],
    });
    expect((await postWebhook(ta, raw)).statusCode).toBe(200);
    await ta.app.parley.jobs.drain();
    const e = await estimate();
    expect(e.steps[0].category).toBe('MARKETING');
    expect(e.warnings).toEqual([expect.stringMatching(/^Template "order_update" became MARKETING on \d{4}-\d{2}-\d{2} \(it was UTILITY\)/)]);
    expect(e.costs).toEqual([{ currency: 'USD', amount: 0.2987 }]);
  });

  it('a card without a price for some recipients counts them as unpriced', async () => {
    expect((await upload('Market,Currency,Marketing,Utility,Authentication\nBrazil,BRL,0.35,0.04,0.04\n')).statusCode).toBe(200);
    const e = await estimate();
    expect(e.unpriced).toBe(3);
    expect(e.costs).toEqual([{ currency: 'BRL', amount: 0.7 }]);
    expect(e.warnings.join(' ')).toMatch(/3 recipients have no price on the rate card/);
  });
});
