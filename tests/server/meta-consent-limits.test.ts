/**
 * Meta's consent and limits in campaigns: the `user_preferences` webhook and 131050 set a contact's marketing
 * consent (ordered by Meta's timestamp, apart from Parley's opt-out); marketing sends skip a stopped contact
 * while utility templates still go; 131049 is `capped` with one retry 24 hours on, never a failure; marketing
 * to US numbers is skipped when the workspace says so; account-level refusals and paused templates halt the
 * campaign with the recipients still pending, and resume sends them. The runner is called directly with a
 * stand-in outbound path; webhooks go through the real inbound pipeline in Meta's shapes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/client';
import { buildInboundPipeline, type InboundDeps } from '../../src/server/app/inbound';
import { createCampaignRunner } from '../../src/server/campaigns/runner';
import type { Progress } from '../../src/server/campaigns/events';
import { countsOf } from '../../src/server/repositories/campaign-results';
import { clearHalt } from '../../src/server/repositories/campaign-halts';
import { setRunsStatus } from '../../src/server/repositories/campaign-runs';
import type { Outbound } from '../../src/server/messaging/outbound';
import type { ServiceDeps } from '../../src/server/services/context';
import { createFileStore, type FileStore } from '../../src/server/storage/file-store';
import { GraphApiError } from '../../src/server/whatsapp/graph-errors';
import { healthOfPhoneNumber } from '../../src/server/services/number-health';
import { openTestDatabase } from '../support/server';
import { recordingLogger, type LoggedLine } from '../support/recording-logger';

let database: Database;
let dispose: () => Promise<void>;
let files: FileStore;
let dataDir: string;
let ws = '';
let memberId = '';
let accountId = '';
let marketingId = '';
let utilityId = '';
const pnid = `pn-consent-${Date.now()}`;
const waba = `waba-consent-${Date.now()}`;

const logged: LoggedLine[] = [];
interface SendInput {
  target: { contactId: string };
  idempotencyKey: string;
}
const sends: SendInput[] = [];
const script = new Map<string, (Error | string)[]>();
let wamidSeq = 0;
const outbound = {
  async send(input: SendInput) {
    sends.push(input);
    const next = script.get(input.target.contactId)?.shift();
    if (next instanceof Error) throw next;
    return { wamid: next ?? `wamid.consent.${++wamidSeq}`, replayed: false, sendId: `send-${wamidSeq}`, message: {} };
  },
} as unknown as Outbound;
const progress = { changed: () => undefined, stop: () => undefined } as unknown as Progress;

let clock: Date | null = null;
const deps = () => ({ db: database, files, log: recordingLogger(logged) }) as unknown as ServiceDeps;
const runner = () => createCampaignRunner(deps(), outbound, progress, { now: () => (clock ? new Date(clock) : new Date()) });
const pipeline = () =>
  buildInboundPipeline({ db: database, files, log: recordingLogger(logged), jobs: { send: async () => null } } as unknown as InboundDeps);

beforeAll(async () => {
  ({ database, dispose } = await openTestDatabase());
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-consent-'));
  files = createFileStore({ dataDir, publicUrl: 'http://parley.test', secret: 's' });
  const db = database.db;
  // US test numbers throughout; the skip, on by default, is turned back on by the test that is about it.
  const [w] = await db.insert(t.workspaces).values({ name: 'Consent Shop', skipUsMarketing: false }).returning();
  ws = w.id;
  const [m] = await db.insert(t.members).values({ uid: `uid-consent-${Date.now()}` }).returning();
  memberId = m.id;
  [{ id: accountId }] = await db
    .insert(t.whatsappAccounts)
    .values({ workspaceId: ws, phoneNumber: '+442071838750', wabaAccountId: waba, appId: 'app', phoneNumberId: pnid, tokenCiphertext: 's', tokenLast4: '0000', memberId })
    .returning();
  const tpl = (name: string, category: string) => ({
    workspaceId: ws,
    whatsappAccountId: accountId,
    name,
    status: 'APPROVED',
    language: 'en_US',
    category,
    components: [{ type: 'BODY', text: 'Hello there' }],
    memberId,
  });
  [{ id: marketingId }, { id: utilityId }] = await db.insert(t.whatsappTemplates).values([tpl('winter_sale', 'MARKETING'), tpl('order_update', 'UTILITY')]).returning();
});
afterAll(async () => {
  await dispose?.();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});
afterEach(async () => {
  await database.db.update(t.campaignRuns).set({ status: 'cancelled' }).where(inArray(t.campaignRuns.status, ['running', 'paused']));
  await database.db.update(t.workspaces).set({ skipUsMarketing: false }).where(eq(t.workspaces.id, ws));
  await database.db.update(t.whatsappTemplates).set({ status: 'APPROVED' }).where(eq(t.whatsappTemplates.workspaceId, ws));
  sends.length = 0;
  script.clear();
  clock = null;
});

let seq = 0;
async function addContact(phone?: string) {
  const phoneNumber = phone ?? `+4479${String(11_000_000 + ++seq).padStart(8, '0')}`;
  const [row] = await database.db.insert(t.contacts).values({ workspaceId: ws, phoneNumber, name: `Customer ${++seq}` }).returning();
  return row;
}

/** A one-time campaign in progress with one send step of `templateId`, its recipients due now. */
async function campaignFor(templateId: string, contacts: { id: string }[]) {
  const rf = {
    nodes: [
      { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId: 'seg' } },
      { id: 's1', type: 'SendWhatsappNode', position: { x: 0, y: 100 }, data: { label: 'Send', whatsappAccountId: accountId, whatsappTemplateId: templateId, variables: [] } },
    ],
    edges: [{ id: 'e0', source: 'trigger', target: 's1' }],
    viewport: { x: 0, y: 0, zoom: 1 },
  };
  const [c] = await database.db
    .insert(t.campaigns)
    .values({ workspaceId: ws, name: `Campaign ${++seq}`, type: 'oneTime', status: 'inProgress', rfInstance: rf, memberId, deployedAt: new Date(), deployedRf: rf })
    .returning();
  const [run] = await database.db.insert(t.campaignRuns).values({ workspaceId: ws, campaignId: c.id, recipientCount: contacts.length }).returning();
  const recipients = await database.db
    .insert(t.campaignRecipients)
    .values(contacts.map((x, i) => ({ workspaceId: ws, runId: run.id, campaignId: c.id, contactId: x.id, stepId: 's1', status: 'pending' as const, nextAt: new Date(Date.now() - 60_000 + i) })))
    .returning();
  return { c, run, recipients };
}

const contactRow = async (id: string) => (await database.db.select().from(t.contacts).where(eq(t.contacts.id, id)))[0];
const recipientRow = async (id: string) => (await database.db.select().from(t.campaignRecipients).where(eq(t.campaignRecipients.id, id)))[0];
const logOf = async (recipientId: string) => (await database.db.select().from(t.campaignLogs).where(eq(t.campaignLogs.recipientId, recipientId)))[0];
const campaignRow = async (id: string) => (await database.db.select().from(t.campaigns).where(eq(t.campaigns.id, id)))[0];
const contactEvents = async (contactId: string) =>
  (await database.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.type, 'contact.updated'))).filter(
    (e) => (e.payload as { contact: { id: string } }).contact.id === contactId,
  );

/** Meta's `user_preferences` delivery for one customer. */
const preference = (waId: string, value: 'stop' | 'resume', timestamp: number) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: waba,
      changes: [
        {
          field: 'user_preferences',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '442071838750', phone_number_id: pnid },
            contacts: [{ profile: { name: 'Customer' }, wa_id: waId, user_id: 'GB.1234567890' }],
            user_preferences: [{ wa_id: waId, user_id: 'GB.1234567890', detail: 'User requested to stop marketing messages', category: 'marketing_messages', value, timestamp }],
          },
        },
      ],
    },
  ],
});

/** Meta's `failed` status delivery for a sent message. */
const failedStatus = (wamid: string, waId: string, code: number, title: string, timestamp: number) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: waba,
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '442071838750', phone_number_id: pnid },
            statuses: [
              { id: wamid, status: 'failed', timestamp: String(timestamp), recipient_id: waId, errors: [{ code, title, message: title, error_data: { details: title } }] },
            ],
          },
        },
      ],
    },
  ],
});

const digitsOf = (phone: string | null) => (phone ?? '').replace(/\D/g, '');

/** The sent message a status is about, as the outbound path stores it. */
async function storedSend(contactId: string, wamid: string) {
  const [conv] = await database.db.insert(t.conversations).values({ workspaceId: ws, contactId, whatsappAccountId: accountId }).returning();
  await database.db.insert(t.messages).values({ workspaceId: ws, conversationId: conv.id, type: 'template', text: 'Hello there', creator: 'bot', waMessageId: wamid, status: 'sent' });
}

describe("Meta's marketing consent", () => {
  it('user_preferences stop and resume are ordered by their timestamp: redelivery and an older resume change nothing', async () => {
    const contact = await addContact();
    const p = pipeline();
    await p.processWebhook(preference(digitsOf(contact.phoneNumber), 'stop', 1_790_000_100));
    let row = await contactRow(contact.id);
    expect({ consent: row.marketingConsent, source: row.marketingConsentSource, at: row.marketingConsentAt?.toISOString() }).toEqual({
      consent: 'stopped',
      source: 'user_preferences',
      at: new Date(1_790_000_100_000).toISOString(),
    });
    // Parley's own opt-out is a separate matter.
    expect(row.optedOutAt).toBeNull();
    expect(await contactEvents(contact.id)).toHaveLength(1);

    await p.processWebhook(preference(digitsOf(contact.phoneNumber), 'stop', 1_790_000_100)); // redelivered
    await p.processWebhook(preference(digitsOf(contact.phoneNumber), 'resume', 1_790_000_050)); // older, arriving late
    row = await contactRow(contact.id);
    expect(row.marketingConsent).toBe('stopped');
    expect(await contactEvents(contact.id)).toHaveLength(1);

    await p.processWebhook(preference(digitsOf(contact.phoneNumber), 'resume', 1_790_000_200));
    row = await contactRow(contact.id);
    expect(row.marketingConsent).toBe('resumed');
    const last = (await contactEvents(contact.id)).at(-1)!.payload as { contact: { marketingConsent: unknown } };
    expect(last.contact.marketingConsent).toEqual({ value: 'resumed', source: 'user_preferences', at: new Date(1_790_000_200_000).toISOString() });
  });

  it('a marketing campaign skips a contact who stopped marketing in WhatsApp, with the reason; a utility template still goes', async () => {
    const stopped = await addContact();
    await pipeline().processWebhook(preference(digitsOf(stopped.phoneNumber), 'stop', Math.floor(Date.now() / 1000)));
    const marketing = await campaignFor(marketingId, [stopped]);
    await runner().tick();
    expect(sends).toHaveLength(0);
    expect((await recipientRow(marketing.recipients[0].id)).status).toBe('skipped');
    expect(await logOf(marketing.recipients[0].id)).toMatchObject({ deliveryState: 'optedOut', reason: 'Stopped marketing messages in WhatsApp' });

    const utility = await campaignFor(utilityId, [stopped]);
    await runner().tick();
    expect(sends.map((s) => s.target.contactId)).toEqual([stopped.id]);
    expect(await logOf(utility.recipients[0].id)).toMatchObject({ deliveryState: 'sent' });
  });

  it('a 131050 refusal skips the recipient and records the stop with its source', async () => {
    const contact = await addContact();
    script.set(contact.id, [new GraphApiError({ httpStatus: 400, code: 131050, message: 'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.' })]);
    const { recipients } = await campaignFor(marketingId, [contact]);
    await runner().tick();
    expect((await recipientRow(recipients[0].id)).status).toBe('skipped');
    expect(await logOf(recipients[0].id)).toMatchObject({ deliveryState: 'optedOut', errorCode: 131050 });
    expect(await contactRow(contact.id)).toMatchObject({ marketingConsent: 'stopped', marketingConsentSource: '131050' });
  });

  it('a failed status with 131050 marks the log line opted out and stops the contact (a redelivery changes nothing)', async () => {
    const contact = await addContact();
    script.set(contact.id, ['wamid.async-131050']);
    const { recipients } = await campaignFor(marketingId, [contact]);
    await runner().tick();
    await storedSend(contact.id, 'wamid.async-131050');
    const p = pipeline();
    const status = failedStatus('wamid.async-131050', digitsOf(contact.phoneNumber), 131050, 'User stopped marketing messages', Math.floor(Date.now() / 1000));
    await p.processWebhook(status);
    await p.processWebhook(status);
    expect(await logOf(recipients[0].id)).toMatchObject({ deliveryState: 'optedOut', errorCode: 131050 });
    expect(await contactRow(contact.id)).toMatchObject({ marketingConsent: 'stopped', marketingConsentSource: '131050' });
    expect(await contactEvents(contact.id)).toHaveLength(1);
  });
});

describe('marketing limits', () => {
  it('131049 is capped, not a failure, and the same step goes once more no sooner than 24 hours later', async () => {
    const contact = await addContact();
    const cap = () => new GraphApiError({ httpStatus: 400, code: 131049, message: 'This message was not delivered to maintain healthy ecosystem engagement.' });
    script.set(contact.id, [cap()]);
    const { c, recipients } = await campaignFor(marketingId, [contact]);
    clock = new Date();
    await runner().tick();
    const r = await recipientRow(recipients[0].id);
    expect(r.status).toBe('pending');
    expect(r.nextAt!.getTime() - clock.getTime()).toBe(24 * 3600_000);
    expect(await logOf(recipients[0].id)).toMatchObject({ deliveryState: 'capped', errorCode: 131049 });
    const counts = (await countsOf(database.db, ws, [c.id])).get(c.id)!;
    expect({ failed: counts.failed, capped: counts.capped, pending: counts.pending }).toEqual({ failed: 0, capped: 1, pending: 1 });

    // Due again a day later: a new send (its own key), and the log line says sent.
    await database.db.update(t.campaignRecipients).set({ nextAt: new Date(Date.now() - 1000) }).where(eq(t.campaignRecipients.id, recipients[0].id));
    await runner().tick();
    expect(sends.map((s) => s.idempotencyKey)).toEqual([`campaign:${recipients[0].id}:s1`, `campaign:${recipients[0].id}:s1:capped`]);
    expect(await logOf(recipients[0].id)).toMatchObject({ deliveryState: 'sent' });
    expect((await recipientRow(recipients[0].id)).status).toBe('done');
  });

  it('a second 131049 after the retry ends the recipient as skipped (capped), never failed', async () => {
    const contact = await addContact();
    const cap = () => new GraphApiError({ httpStatus: 400, code: 131049, message: 'capped' });
    script.set(contact.id, [cap(), cap()]);
    const { recipients } = await campaignFor(marketingId, [contact]);
    await runner().tick();
    await database.db.update(t.campaignRecipients).set({ nextAt: new Date(Date.now() - 1000) }).where(eq(t.campaignRecipients.id, recipients[0].id));
    await runner().tick();
    expect(sends).toHaveLength(2);
    expect((await recipientRow(recipients[0].id)).status).toBe('skipped');
    expect(await logOf(recipients[0].id)).toMatchObject({ deliveryState: 'capped' });
  });

  it('a failed status with 131049 puts the finished recipient back on its step 24 hours on, once', async () => {
    const contact = await addContact();
    script.set(contact.id, ['wamid.async-131049']);
    const { recipients } = await campaignFor(marketingId, [contact]);
    await runner().tick();
    expect((await recipientRow(recipients[0].id)).status).toBe('done');
    await storedSend(contact.id, 'wamid.async-131049');
    const status = failedStatus('wamid.async-131049', digitsOf(contact.phoneNumber), 131049, 'Message not delivered to maintain healthy ecosystem engagement', Math.floor(Date.now() / 1000));
    const before = Date.now();
    await pipeline().processWebhook(status);
    const r = await recipientRow(recipients[0].id);
    expect({ status: r.status, stepId: r.stepId }).toEqual({ status: 'pending', stepId: 's1' });
    expect(r.nextAt!.getTime()).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 5_000);
    expect(await logOf(recipients[0].id)).toMatchObject({ deliveryState: 'capped' });
  });

  it('marketing templates to US numbers are skipped before sending, by default; utility still goes', async () => {
    const us = await addContact(`+1415555${String(1000 + ++seq).slice(-4)}`);
    const canada = await addContact(`+1604555${String(1000 + ++seq).slice(-4)}`);
    // The workspace as a new one is (the other tests of this file turn the skip off).
    await database.db.update(t.workspaces).set({ skipUsMarketing: sql`default` }).where(eq(t.workspaces.id, ws));
    expect((await database.db.select({ skip: t.workspaces.skipUsMarketing }).from(t.workspaces).where(eq(t.workspaces.id, ws)))[0].skip).toBe(true);
    const { recipients } = await campaignFor(marketingId, [us, canada]);
    await runner().tick();
    expect(sends.map((s) => s.target.contactId)).toEqual([canada.id]);
    const usRecipient = recipients.find((r) => r.contactId === us.id)!;
    expect((await recipientRow(usRecipient.id)).status).toBe('skipped');
    expect(await logOf(usRecipient.id)).toMatchObject({ deliveryState: 'capped', reason: 'Not sent: WhatsApp does not deliver marketing templates to US numbers' });

    sends.length = 0;
    await campaignFor(utilityId, [us]);
    await runner().tick();
    expect(sends.map((s) => s.target.contactId)).toEqual([us.id]);
  });
});

describe('account-level refusals halt the campaign', () => {
  it('132015 halts with the code and Meta\'s words; the recipients stay pending and resume sends them', async () => {
    const a = await addContact();
    const b = await addContact();
    script.set(a.id, [new GraphApiError({ httpStatus: 400, code: 132015, message: 'Template is paused', details: 'Template is paused due to low quality' })]);
    script.set(b.id, [new GraphApiError({ httpStatus: 400, code: 132015, message: 'Template is paused', details: 'Template is paused due to low quality' })]);
    const { c, run, recipients } = await campaignFor(marketingId, [a, b]);
    await runner().tick();
    const halted = await campaignRow(c.id);
    expect({ status: halted.status, code: halted.haltCode, reason: halted.haltReason }).toEqual({ status: 'paused', code: 132015, reason: 'Template is paused due to low quality' });
    for (const r of recipients) expect((await recipientRow(r.id)).status).toBe('pending');
    expect(await logOf(recipients[0].id)).toBeUndefined();
    const events = (await database.db.select().from(t.workspaceEvents).where(eq(t.workspaceEvents.type, 'campaign.updated'))).filter(
      (e) => (e.payload as { campaign: { id: string } }).campaign.id === c.id,
    );
    expect((events.at(-1)!.payload as { campaign: { halt: { code: number } } }).campaign.halt.code).toBe(132015);

    // Paused: nothing more is sent.
    sends.length = 0;
    await runner().tick();
    expect(sends).toHaveLength(0);

    // Resumed: the same recipients go (the refused sends stayed sendable).
    await database.db.transaction(async (tx) => {
      await setRunsStatus(tx, ws, c.id, 'paused', 'running');
      await clearHalt(tx, ws, c.id);
    });
    await runner().tick();
    expect(sends.map((s) => s.target.contactId).sort()).toEqual([a.id, b.id].sort());
    expect((await database.db.select().from(t.campaignRuns).where(eq(t.campaignRuns.id, run.id)))[0].status).not.toBe('paused');
    expect((await campaignRow(c.id)).haltCode).toBeNull();
  });

  it('a template paused by WhatsApp halts the campaign before anything is sent, instead of failing its audience', async () => {
    const a = await addContact();
    await database.db.update(t.whatsappTemplates).set({ status: 'PAUSED' }).where(eq(t.whatsappTemplates.id, marketingId));
    const { c, recipients } = await campaignFor(marketingId, [a]);
    await runner().tick();
    expect(sends).toHaveLength(0);
    expect(await campaignRow(c.id)).toMatchObject({ status: 'paused', haltCode: 132015 });
    expect((await recipientRow(recipients[0].id)).status).toBe('pending');
  });

  it.each([80007, 131048, 132016, 190, 368, 131031, 131042, 131063, 131064])('%i halts the campaign', async (code) => {
    const a = await addContact();
    script.set(a.id, [new GraphApiError({ httpStatus: 400, code, message: `refused ${code}` })]);
    const { c, recipients } = await campaignFor(marketingId, [a]);
    await runner().tick();
    expect(await campaignRow(c.id)).toMatchObject({ status: 'paused', haltCode: code, haltReason: `refused ${code}` });
    expect((await recipientRow(recipients[0].id)).status).toBe('pending');
  });
});

describe('portfolio messaging limit', () => {
  it("is read from the new Graph field, with the deprecated per-number tier as a fallback", () => {
    expect(healthOfPhoneNumber({ id: 'pn', display_phone_number: '+44 20 7183 8750', messaging_limit_tier: 'TIER_1K', whatsapp_business_manager_messaging_limit: 'TIER_10K' })).toMatchObject({
      messagingLimitTier: 'TIER_1K',
      portfolioMessagingLimit: 'TIER_10K',
    });
    expect(healthOfPhoneNumber({ id: 'pn', display_phone_number: '+44 20 7183 8750', messaging_limit_tier: 'TIER_2K' })).toMatchObject({ portfolioMessagingLimit: 'TIER_2K' });
    expect(healthOfPhoneNumber({ id: 'pn', display_phone_number: '+44 20 7183 8750' })).not.toHaveProperty('portfolioMessagingLimit');
  });
});
