/**
 * The workspace's admins are told by e-mail (the product's way of reaching admins) when WhatsApp halts campaigns:
 * which campaigns, the number or template, Meta's code and words, and what to do. Sent after the batch commits;
 * a mail that cannot be sent is logged, never a failed batch (the halt shows on each campaign anyway).
 */
import { account } from '../repositories/whatsapp-accounts';
import { whatsappTemplates } from '../repositories/resources';
import { workspaceMembersOf, workspaceName } from '../repositories/workspaces';
import type { ServiceDeps } from '../services/context';
import type { AppliedHalt } from './halts';

type NoticeDeps = Pick<ServiceDeps, 'db' | 'log' | 'identity' | 'mailer'>;

/** The subject and text of the admins' mail for one halt. */
export function haltNotice(h: AppliedHalt, names: { workspace: string; number: string; template: string }): { subject: string; text: string } {
  const campaigns = h.campaigns.map((c) => `"${c.name}"`);
  const what = h.scope === 'template' ? `the template ${names.template}` : `the number ${names.number}`;
  const subject = `${names.workspace}: WhatsApp halted ${campaigns.length === 1 ? `the campaign ${campaigns[0]}` : `${campaigns.length} campaigns`} (${h.code})`;
  const text = [
    `WhatsApp refused a campaign send with error ${h.code}: ${h.reason}`,
    '',
    `Every running campaign of ${what} is paused:`,
    ...campaigns.map((c) => `- ${c}`),
    '',
    'The recipients not sent yet stay pending. Once the cause is fixed in WhatsApp Manager, open each campaign in Parley and resume it: it sends them.',
  ].join('\n');
  return { subject, text };
}

/** E-mails each admin of the workspace about these halts. */
export async function noticeHalts(d: NoticeDeps, workspaceId: string, applied: AppliedHalt[]): Promise<void> {
  if (applied.length === 0) return;
  try {
    const db = d.db.db;
    const admins = (await workspaceMembersOf(db, workspaceId)).filter((m) => m.role === 'admin').map((m) => m.member.uid);
    const profiles = await d.identity.profiles(admins);
    const to = [...profiles.values()].flatMap((p) => (p.email ? [p.email] : []));
    if (to.length === 0) return;
    const workspace = await workspaceName(db, workspaceId);
    for (const h of applied) {
      const [number, template] = await Promise.all([account(db, workspaceId, h.whatsappAccountId), whatsappTemplates.get(db, workspaceId, h.templateId)]);
      const mail = haltNotice(h, { workspace, number: number?.phoneNumber ?? 'of these campaigns', template: template?.name ?? 'of these campaigns' });
      for (const address of to) await d.mailer.send({ to: address, ...mail });
    }
  } catch (err) {
    d.log.warn({ err, workspaceId }, 'admins not told of a campaign halt; it shows on each campaign');
  }
}
