/**
 * Tenancy canaries: workspace A seeded with rows of every kind, each carrying a distinctive marker,
 * and the set of every id and distinctive string A holds, read back from the database so a table added later is
 * collected without new code. An answer given to workspace B must contain none of them.
 */
import { randomUUID } from 'node:crypto';
import { eq, getTableColumns, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as t from '../../src/server/db/schema';
import { type Seeded, seedWorkspace } from './fixtures';
import { multipartBody } from './multipart';
import type { Session, TestApp } from './server';

/** Every table that belongs to a workspace (has a workspace_id column), found in the schema. */
export function workspaceTables(): PgTable[] {
  return (Object.values(t) as unknown[]).filter((x): x is PgTable => is(x, PgTable) && 'workspaceId' in getTableColumns(x));
}

export interface CanaryWorkspace {
  seeded: Seeded;
  /** Marker in every name, text and title A was given. */
  marker: string;
  /** Search terms B tries: A's distinctive names. */
  searchTerms: string[];
  /** URLs of files A uploaded. */
  fileUrls: string[];
  /** The conversation a customer opened by writing to A's number (with its events). */
  inboundConversationId: string;
}

async function must(ta: TestApp, method: 'POST' | 'PATCH', url: string, token: string, body: unknown) {
  const res = await ta.call(method, url, { token, body });
  if (res.statusCode >= 300) throw new Error(`seeding ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

async function upload(ta: TestApp, url: string, token: string, file: Parameters<typeof multipartBody>[0]): Promise<string> {
  const { payload, headers } = multipartBody(file);
  const res = await ta.app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
  if (res.statusCode >= 300) throw new Error(`upload ${url}: ${res.statusCode} ${res.body}`);
  const answer = res.json() as Record<string, string>;
  return answer.mediaLink ?? answer.photoUrl ?? answer.fileUrl ?? answer.assetUrl;
}

export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Seeds a workspace with one of every kind through the API and the webhook path (plus the base seed), every
 * name carrying `marker`: contacts, conversations, messages, events, attributes, segments, templates, numbers,
 * campaigns and their logs, bots, members, invitations, imports and files.
 */
export async function seedCanaryWorkspace(ta: TestApp, admin: Session, marker: string): Promise<CanaryWorkspace> {
  const s = await seedWorkspace(ta, admin);
  const w = s.workspaceId;
  const tok = admin.token;
  const contactName = `Canary Grace ${marker}`;
  const customerName = `Canary Customer ${marker}`;
  const botTitle = `Canary bot ${marker}`;
  const campaignName = `Canary campaign ${marker}`;
  const segmentName = `Canary segment ${marker}`;
  const attributeName = `canary_${marker}`;

  await must(ta, 'PATCH', `/contact/${s.ids.contact}`, tok, { name: contactName, email: `canary-${marker}@acme-test.com` });
  await must(ta, 'PATCH', `/bot/${s.ids.bot}`, tok, { title: botTitle });
  await must(ta, 'PATCH', `/campaign/${s.ids.campaign}`, tok, { name: campaignName });
  await must(ta, 'POST', '/attribute', tok, { name: attributeName, format: 'text', workspaceId: w, description: `Canary attribute ${marker}` });
  await must(ta, 'POST', '/segment', tok, { name: segmentName, filters: [], workspaceId: w });
  await must(ta, 'POST', '/invitee', tok, { email: `canary-invitee-${marker}@acme-test.com`, role: 'admin', workspaceId: w });
  await must(ta, 'PATCH', `/conversation/${s.ids.conversation}`, tok, { assigneeMemberId: admin.member.id });

  // A customer writes to A's number: a contact, a conversation, a message and workspace events, all A's.
  const [account] = await ta.db.select().from(t.whatsappAccounts).where(eq(t.whatsappAccounts.id, s.ids.whatsappAccount));
  const waId = `1415${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const { webhook } = await ta.sandbox.customers.say(waId, `Canary text ${marker}`, { phoneNumberId: account.phoneNumberId, name: customerName });
  if (!webhook.delivered) throw new Error(`the customer's webhook was not delivered: ${webhook.status}`);
  await ta.app.parley.jobs.drain();
  const [customer] = await ta.db.select().from(t.contacts).where(eq(t.contacts.name, customerName));
  if (!customer) throw new Error('the inbound webhook stored no contact');
  const [inboundConversation] = await ta.db.select().from(t.conversations).where(eq(t.conversations.contactId, customer.id));
  await must(ta, 'POST', '/message', tok, { text: `Canary reply ${marker}`, conversationId: inboundConversation.id });

  // A campaign log row as the campaign runner writes one.
  await ta.db.insert(t.campaignLogs).values({
    workspaceId: w,
    campaignId: s.ids.campaign,
    phoneNumber: `+1415${marker.replace(/\D/g, '').slice(0, 7).padEnd(7, '7')}`,
    templateName: `canary_template_${marker}`,
    messageStatus: 'success',
    waMessageId: `wamid.canary${marker}`,
  });

  // Files: bot media, an import CSV, a template header sample, the admin's profile photo.
  const fileUrls = [
    await upload(ta, `/bot/${s.ids.bot}/uploadMedia`, tok, { fileName: `canary-${marker}.png`, mimeType: 'image/png', content: tinyPng }),
    await upload(ta, '/import-history/upload', tok, { fileName: `canary-${marker}.csv`, mimeType: 'text/csv', content: 'phone,name\n+14155550111,Canary\n' }),
    await upload(ta, '/whatsapp-template/upload-media', tok, { fileName: `canary-${marker}.png`, mimeType: 'image/png', content: tinyPng }),
    await upload(ta, '/member/profile-photo', tok, { fileName: `canary-${marker}.png`, mimeType: 'image/png', content: tinyPng }),
  ];

  return {
    seeded: s,
    marker,
    searchTerms: [contactName, customerName, marker, `canary-${marker}`, waId],
    fileUrls,
    inboundConversationId: inboundConversation.id,
  };
}

/** Strings that say nothing of a tenant (enum values, a shared seed's texts) are left out by this test. */
const distinctive = (v: string, marker: string) => v.includes(marker) || (v.length >= 10 && /\d/.test(v));

/**
 * Every id and distinctive string that workspace A holds, from the database: each row's uuid columns and every
 * string with the marker or with digits (phone numbers, wamids, file keys, e-mails of its people), minus any
 * value B's own rows hold too (a value both hold proves nothing).
 */
export async function collectCanaries(ta: TestApp, a: CanaryWorkspace, people: Session[], bWorkspaceId: string): Promise<Set<string>> {
  const found = new Set<string>([a.seeded.workspaceId, a.seeded.inviteToken, ...a.fileUrls]);
  for (const p of people) [p.member.id, p.member.uid, p.email].forEach((v) => found.add(v));
  let bRows = '';
  for (const table of workspaceTables()) {
    const cols = getTableColumns(table) as Record<string, unknown>;
    const wsCol = cols.workspaceId as Parameters<typeof eq>[0];
    for (const row of await ta.db.select().from(table).where(eq(wsCol, a.seeded.workspaceId))) {
      for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
        if (typeof value !== 'string' || key === 'workspaceId') continue;
        if (key === 'id' || distinctive(value, a.marker)) found.add(value);
      }
    }
    bRows += JSON.stringify(await ta.db.select().from(table).where(eq(wsCol, bWorkspaceId)));
  }
  for (const v of [...found]) if (bRows.includes(v)) found.delete(v);
  return found;
}

/** The canaries an answer contains. */
export function leaksIn(body: string, canaries: Set<string>): string[] {
  return [...canaries].filter((c) => body.includes(c));
}

export const newMarker = () => `cnry${randomUUID().replace(/-/g, '').slice(0, 12)}`;
