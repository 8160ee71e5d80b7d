/**
 * Templates Meta changes after approval: `template_category_update` (impending, then completed) and
 * `message_template_quality_update` show on the template, in the order Meta made them, whatever order and
 * however often they are delivered.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { type Seeded, seedWorkspace } from '../support/fixtures';
import { postWebhook } from '../support/sandbox-webhooks';

let ta: TestApp;
let admin: Session;
let s: Seeded;
let wabaId: string;
const metaId = '1689556908129832';

beforeAll(async () => {
  ta = await buildTestApp();
  admin = await ta.newAdmin('Template Changes Shop');
  s = await seedWorkspace(ta, admin);
  const [account] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount));
  wabaId = account.wabaAccountId;
  await ta.db.update(t.whatsappTemplates).set({ whatsappTemplateId: metaId }).where(eq(t.whatsappTemplates.id, s.ids.whatsappTemplate));
});
afterAll(async () => {
  await ta?.close();
});

const ref = { message_template_id: Number(metaId), message_template_name: 'order_update', message_template_language: 'en_US' };
/** One change of a field as Meta delivers it; `time` is the entry's time (unix seconds). */
const change = (field: string, value: Record<string, unknown>, time: number) =>
  JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: wabaId, time, changes: [{ field, value: { ...ref, ...value } }] }] });
const impending = (time: number, effective: number) =>
  change('template_category_update', { correct_category: 'MARKETING', new_category: 'UTILITY', category_update_timestamp: effective }, time);
const completed = (time: number) => change('template_category_update', { previous_category: 'UTILITY', new_category: 'MARKETING' }, time);
const quality = (time: number, previous: string, next: string) =>
  change('message_template_quality_update', { previous_quality_score: previous, new_quality_score: next }, time);

async function deliver(raw: string) {
  expect((await postWebhook(ta, raw)).statusCode).toBe(200);
  await ta.app.parley.jobs.drain();
}
async function template() {
  const res = await ta.call('GET', `/workspace/${s.workspaceId}/whatsapp-templates`, { token: admin.token });
  expect(res.statusCode).toBe(200);
  return (res.json().items ?? res.json()).find((x: { id: string }) => x.id === s.ids.whatsappTemplate);
}
const iso = (sec: number) => new Date(sec * 1000).toISOString();

describe('template_category_update', () => {
  const t0 = 1_790_000_000;

  it('impending: the template keeps its category and shows the coming one and when', async () => {
    await deliver(impending(t0, t0 + 86_400));
    expect(await template()).toMatchObject({
      category: 'UTILITY',
      categoryChange: { state: 'impending', previousCategory: 'UTILITY', newCategory: 'MARKETING', effectiveAt: iso(t0 + 86_400), at: iso(t0) },
    });
  });

  it('completed: the template moves to its new category; the impending one redelivered late changes nothing', async () => {
    await deliver(completed(t0 + 86_400));
    await deliver(impending(t0, t0 + 86_400));
    const tpl = await template();
    expect(tpl).toMatchObject({ category: 'MARKETING', categoryChange: { state: 'completed', previousCategory: 'UTILITY', newCategory: 'MARKETING', at: iso(t0 + 86_400) } });
    const events = await ta.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.workspaceId, s.workspaceId));
    const statusEvents = events.filter((e) => e.type === 'template.status');
    expect((statusEvents.at(-1)!.payload as { template: { category: string } }).template.category).toBe('MARKETING');
  });

  it('a malformed update or one for a template Parley does not know is dropped without retries', async () => {
    await deliver(change('template_category_update', { new_category: 'SOMETHING' }, t0 + 90_000));
    await deliver(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: wabaId, time: t0 + 90_000, changes: [{ field: 'template_category_update', value: { ...ref, message_template_id: 42, previous_category: 'MARKETING', new_category: 'UTILITY' } }] }] }));
    expect(await template()).toMatchObject({ category: 'MARKETING', categoryChange: { state: 'completed' } });
  });
});

describe('message_template_quality_update', () => {
  const t1 = 1_790_100_000;

  it('shows the score on the template, the older update arriving after the newer one changing nothing', async () => {
    expect((await template()).quality).toBeNull();
    await deliver(quality(t1 + 60, 'YELLOW', 'RED'));
    await deliver(quality(t1, 'GREEN', 'YELLOW'));
    expect((await template()).quality).toEqual({ score: 'RED', previousScore: 'YELLOW', at: iso(t1 + 60) });
    // Redelivered: the same.
    await deliver(quality(t1 + 60, 'YELLOW', 'RED'));
    await deliver(quality(t1 + 120, 'RED', 'GREEN'));
    expect((await template()).quality).toEqual({ score: 'GREEN', previousScore: 'RED', at: iso(t1 + 120) });
  });
});
