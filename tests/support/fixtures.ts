/** Seeds one of every tenant resource in a workspace, through the API where the API can create it. */
import { eq } from 'drizzle-orm';
import * as t from '../../src/server/db/schema';
import type { ResourceKind } from '../../src/shared/api/routes';
import type { Session, TestApp } from './server';
import { createSecretBox } from '../../src/server/crypto/secrets';
import { testSecretsKey } from './sandbox-webhooks';

export interface Seeded {
  workspaceId: string;
  ids: Record<ResourceKind, string>;
  inviteToken: string;
  inviteEmail: string;
}

export async function seedWorkspace(ta: TestApp, admin: Session): Promise<Seeded> {
  const w = admin.workspaceId;
  const post = async (url: string, body: unknown) => {
    const r = await ta.call('POST', url, { token: admin.token, body });
    if (r.statusCode >= 300) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  const bot = await post('/bot', { workspaceId: w });
  const campaign = await post('/campaign', { workspaceId: w, type: 'oneTime' });
  const attribute = await post('/attribute', { name: 'plan', format: 'text', workspaceId: w });
  const segment = await post('/segment', {
    name: 'Gold plan',
    filters: [{ column: 'plan', value: 'gold', operator: 'IS', conjuction: 'AND' }],
    workspaceId: w,
  });
  const inviteEmail = `pending-${Date.now()}@acme-test.com`;
  await post('/invitee', { email: inviteEmail, role: 'agent', workspaceId: w });
  const [invitee] = await ta.db.select().from(t.invitees).where(eq(t.invitees.email, inviteEmail));

  // Written directly (as POST /whatsapp and the webhook path write them) so a seed needs no Graph round trips:
  // a number of its own in the sandbox, its token sealed with the test SECRETS_KEY.
  const memberId = admin.member.id;
  const number = ta.sandbox.addAccount();
  const [account] = await ta.db
    .insert(t.whatsappAccounts)
    .values({
      workspaceId: w,
      phoneNumber: number.phoneNumber,
      wabaAccountId: number.wabaAccountId,
      appId: number.appId,
      phoneNumberId: number.phoneNumberId,
      tokenCiphertext: createSecretBox(testSecretsKey)!.seal(number.token, number.phoneNumberId),
      tokenLast4: number.token.slice(-4),
      memberId,
    })
    .returning();
  const [template] = await ta.db
    .insert(t.whatsappTemplates)
    .values({
      workspaceId: w,
      whatsappAccountId: account.id,
      name: 'order_update',
      status: 'APPROVED',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hello {{1}}', example: { body_text: [['Ada']] } }],
      memberId,
    })
    .returning();
  const [contact] = await ta.db
    .insert(t.contacts)
    .values({ workspaceId: w, name: 'Grace Customer', phoneNumber: '+14155550123', attributes: { plan: 'gold' } })
    .returning();
  const [conversation] = await ta.db
    .insert(t.conversations)
    .values({ workspaceId: w, contactId: contact.id, whatsappAccountId: account.id, lastInboundAt: new Date() })
    .returning();
  await ta.db.insert(t.messages).values({
    workspaceId: w,
    conversationId: conversation.id,
    type: 'text',
    text: 'Hi, where is my order?',
    creator: 'user',
    status: 'received',
    waMessageId: `wamid.${Math.random().toString(36).slice(2)}`,
  });
  // A personal canned reply of the admin (agents may call its routes; they find it 404, not 403).
  const cannedReply = await post('/canned-reply', { workspaceId: w, scope: 'personal', shortcut: 'thanks', text: 'Thank you, {{name}}!' });
  await ta.db.insert(t.importHistories).values({
    workspaceId: w,
    fileName: 'contacts.csv',
    fileUrl: 'file://contacts.csv',
    columnAttributeMap: [{ columnName: 'phone', attribute: 'phoneNumber' }],
    memberId,
  });

  return {
    workspaceId: w,
    inviteToken: invitee.token,
    inviteEmail,
    ids: {
      bot: bot.id,
      campaign: campaign.id,
      attribute: attribute.id,
      contact: contact.id,
      conversation: conversation.id,
      invitee: invitee.id,
      segment: segment.id,
      whatsappTemplate: template.id,
      whatsappAccount: account.id,
      cannedReply: cannedReply.id,
    },
  };
}

/** Every row of one workspace, in a stable order: compared before and after a call to prove it changed nothing. */
export async function snapshotWorkspace(ta: TestApp, workspaceId: string): Promise<string> {
  const tables = [
    t.workspaceMembers,
    t.invitees,
    t.attributes,
    t.contacts,
    t.segments,
    t.whatsappAccounts,
    t.whatsappTemplates,
    t.bots,
    t.campaigns,
    t.campaignLogs,
    t.conversations,
    t.conversationEvents,
    t.messages,
    t.importHistories,
    t.importRejections,
    t.workspaceEvents,
    t.cannedReplies,
    t.messageMentions,
  ] as const;
  const out: unknown[] = [];
  for (const table of tables) {
    const rows = await ta.db.select().from(table).where(eq(table.workspaceId, workspaceId));
    out.push(rows.map((r) => JSON.stringify(r)).sort());
  }
  const [ws] = await ta.db.select().from(t.workspaces).where(eq(t.workspaces.id, workspaceId));
  out.push(JSON.stringify(ws));
  return JSON.stringify(out);
}
