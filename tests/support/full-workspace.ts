/**
 * A workspace with a row of every kind, made through the API as its admin and agent would make it: a number and
 * an approved template, attributes, contacts by hand and by a CSV import, customers writing in, an agent's reply,
 * a note with a mention, a sent photo, canned replies, a segment, a campaign that ran to its end, a published bot
 * that greeted a customer, an open invitation, a rate card and the workspace's settings. Answers the ids the
 * contract's reads take, once every job the seeding started is done.
 */
import type { TestApp, Session } from './server';
import { customerWrites, type Inbox } from './customers';
import { multipartBody } from './multipart';
import { allowUsMarketing } from './us-marketing';
import { until } from './until';

export interface FullWorkspace {
  admin: Session;
  agent: Session;
  /** Path parameters of the contract's reads (`:workspaceId`, `:botId`, …) filled with this workspace's ids. */
  params: Record<string, string>;
  conversationIds: string[];
  contactIds: string[];
  /** Addresses of the files stored by uploads (chat media, the imported CSV). */
  fileUrls: string[];
}

const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1a9ab0000000049454e44ae426082',
  'hex',
);

export async function seedFullWorkspace(ta: TestApp): Promise<FullWorkspace> {
  const admin = await ta.newAdmin('Drill Outfitters');
  const agent = await ta.newMember(admin, 'agent');
  const w = admin.workspaceId;
  const call = async (session: Session, method: 'POST' | 'PATCH', url: string, body: unknown) => {
    const res = await ta.call(method, url, { token: session.token, body });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const settle = async () => {
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain({ timeoutMs: 60_000 });
  };
  const upload = async (session: Session, url: string, file: Parameters<typeof multipartBody>[0]) => {
    const { payload, headers } = multipartBody(file);
    const res = await ta.app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: `Bearer ${session.token}` } });
    if (res.statusCode !== 201) throw new Error(`upload ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  // Settings, a number, its template, attributes.
  await allowUsMarketing(ta, admin);
  await call(admin, 'PATCH', `/workspace/${w}/campaign-settings`, { optOutKeywords: ['ARRET'], timeZone: 'Europe/Paris' });
  await call(admin, 'PATCH', `/workspace/${w}/bot-settings`, { emailFrom: 'Drill <bots@drill.test>' });
  await call(admin, 'POST', `/workspace/${w}/rate-card`, {
    fileName: 'rates.csv',
    content: 'Market,Currency,Marketing,Utility,Authentication\nNorth America,USD,0.025,0.004,0.0135\n',
  });
  const number = ta.sandbox.addAccount();
  const account = await call(admin, 'POST', '/whatsapp', { ...number, verifiedName: undefined, workspaceId: w });
  const template = await call(admin, 'POST', '/whatsapp-template', {
    name: 'drill_sale', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Spring sale!' }], whatsappAccountId: account.id, workspaceId: w,
  });
  await settle();
  await call(admin, 'POST', '/attribute', { name: 'plan', format: 'text', workspaceId: w });
  await call(admin, 'POST', '/attribute', { name: 'topic', format: 'text', workspaceId: w, type: 'conversation' });

  // Contacts: by hand, by a CSV import, and customers writing in.
  const byHand = await call(agent, 'POST', '/contact', { phoneNumber: '+14155550901', name: 'Hana Byhand', workspaceId: w });
  await call(agent, 'PATCH', `/contact/${byHand.id}`, { attributes: { plan: 'gold' } });
  const csv = await upload(agent, '/import-history/upload', {
    fileName: 'drill.csv', mimeType: 'text/csv', content: 'phone,name,plan\n+14155550911,Ivy Imported,gold\n+14155550912,Ian Imported,silver\nnot-a-phone,Bad Row,gold\n',
  });
  await call(agent, 'POST', '/import-history', {
    fileName: 'drill.csv', fileUrl: csv.fileUrl, workspaceId: w,
    columnAttributeMap: [{ columnName: 'phone', attribute: 'phoneNumber' }, { columnName: 'name', attribute: 'name' }, { columnName: 'plan', attribute: 'plan' }],
  });
  await settle();
  const inbox: Inbox = { ta, workspaceId: w, phoneNumberId: number.phoneNumberId };
  const grace = await customerWrites(inbox, '14155550921', 'Is the blue jacket in stock?', 'Grace Writer');
  const omar = await customerWrites(inbox, '14155550922', 'Where is my order?', 'Omar Writer');

  // Live chat: assignment, a reply, a note mentioning the agent, a photo, a closed conversation, canned replies.
  await call(admin, 'PATCH', `/conversation/${grace.conversation.id}`, { assigneeMemberId: agent.member.id });
  await call(agent, 'POST', '/message', { text: 'Yes, in every size.', conversationId: grace.conversation.id });
  await call(admin, 'POST', '/message/note', { conversationId: grace.conversation.id, text: 'VIP customer', mentionedMemberIds: [agent.member.id] });
  const photo = await upload(agent, `/conversation/${grace.conversation.id}/media`, { fileName: 'jacket.png', mimeType: 'image/png', content: png });
  await call(agent, 'POST', '/message/media', { conversationId: grace.conversation.id, mediaUrl: photo.mediaUrl, caption: 'The blue one' });
  await call(admin, 'PATCH', `/conversation/${omar.conversation.id}`, { isActive: false });
  await call(agent, 'POST', '/canned-reply', { workspaceId: w, scope: 'personal', shortcut: 'thanks', text: 'Thank you, {{name}}!' });
  await call(admin, 'POST', '/canned-reply', { workspaceId: w, scope: 'workspace', shortcut: 'hours', text: 'We open at 9.' });
  await call(admin, 'PATCH', `/workspace/${w}/member-routing`, { memberId: agent.member.id, available: true, chatCapacity: 4 });
  await call(admin, 'POST', '/invitee', { email: 'pending-drill@acme-test.com', role: 'agent', workspaceId: w });
  await settle();

  // A segment, and a one-time campaign sent to it that ran to its end.
  const segment = await call(agent, 'POST', '/segment', { name: 'Gold plan', filters: [{ column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' }], workspaceId: w });
  const campaign = await call(admin, 'POST', '/campaign', { workspaceId: w, type: 'oneTime', name: 'Spring sale' });
  await call(admin, 'PATCH', `/campaign/${campaign.id}`, {
    rfInstance: {
      nodes: [
        { id: 'trigger', type: 'OneTimeTriggerNode', position: { x: 0, y: 0 }, data: { label: 'Start', segmentId: segment.id } },
        { id: 'send', type: 'SendWhatsappNode', position: { x: 0, y: 100 }, data: { label: 'Send', whatsappAccountId: account.id, whatsappTemplateId: template.id } },
      ],
      edges: [{ id: 'e0', source: 'trigger', target: 'send' }],
      viewport: { x: 0, y: 0, zoom: 1 },
    },
  });
  await call(admin, 'POST', `/campaign/${campaign.id}/deploy`, {});
  await until(async () => (await ta.call('GET', `/campaign/${campaign.id}`, { token: admin.token })).json().status === 'completed', 60_000);
  const recurring = await call(admin, 'POST', '/campaign', { workspaceId: w, type: 'recurring', name: 'Order updates' });
  await call(admin, 'POST', `/campaign/${recurring.id}/trigger-key`, {});
  await settle();

  // A published bot on the number that greets a new customer.
  const bot = await call(admin, 'POST', '/bot', { workspaceId: w, title: 'Greeter' });
  const pos = { x: 0, y: 0 };
  await call(admin, 'PATCH', `/bot/${bot.id}`, {
    rfInstance: {
      nodes: [
        { id: 'start', type: 'StartNode', position: pos, data: { label: 'Start' }, deletable: false },
        { id: 'hello', type: 'SendMessageNode', position: pos, data: { label: 'Hello', messageBlocks: [{ id: 'b1', type: 'text', text: 'Welcome to Drill Outfitters' }] } },
      ],
      edges: [{ id: 'e1', source: 'start', target: 'hello' }],
    },
  });
  await call(admin, 'PATCH', `/bot/${bot.id}/connectWaba`, { wabaAccountId: account.id });
  const deployed = await call(admin, 'PATCH', `/bot/${bot.id}`, { isActive: true });
  const greeted = await customerWrites(inbox, '14155550923', 'Hello?', 'Nina Newcomer');
  await settle();

  return {
    admin,
    agent,
    params: {
      workspaceId: w,
      botId: bot.id,
      versionId: deployed.publishedVersionId,
      campaignId: campaign.id,
      contactId: grace.contact.id,
      conversationId: grace.conversation.id,
      whatsappAccountId: account.id,
    },
    conversationIds: [grace.conversation.id, omar.conversation.id, greeted.conversation.id],
    contactIds: [byHand.id, grace.contact.id, omar.contact.id, greeted.contact.id],
    fileUrls: [csv.fileUrl, photo.mediaUrl],
  };
}
