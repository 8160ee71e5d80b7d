/**
 * What inbound WhatsApp traffic means for campaigns (called by whatsapp/ingest.ts):
 * - after a batch of inbound messages commits: a message that is only STOP, UNSUBSCRIBE or one of the
 *   workspace's own keywords (any case), or the tap of a template's marketing opt-out button ("Stop
 *   promotions"), opts the contact out of campaigns (with the workspace's confirmation, the window being open);
 *   START opts back in; any message marks the contact's campaign sends of the last 72 hours replied.
 * - inside a status webhook's transaction: the campaign log line of the wamid follows (never backwards).
 */
import type { Executor } from '../db/client';
import * as campaignContacts from '../repositories/campaign-contacts';
import * as logLines from '../repositories/campaign-logs';
import * as settingsRepo from '../repositories/campaign-settings';
import { toContact } from '../repositories/resources';
import { appendEvents } from '../repositories/event-log';
import type { ServiceDeps } from '../services/context';
import type { InboundItem } from '../whatsapp/inbound-batch';

const optOutWords = new Set(['STOP', 'UNSUBSCRIBE', 'STOP PROMOTIONS']);
const optInWords = new Set(['START']);

/** The words of an inbound message as compared with the keywords: trimmed, upper-case, single spaces. */
const normalised = (text: string | null | undefined) => (text ?? '').trim().replace(/\s+/g, ' ').toUpperCase();

export async function campaignInboundCommitted(d: Pick<ServiceDeps, 'db' | 'jobs' | 'log'>, workspaceId: string, items: InboundItem[]): Promise<void> {
  if (items.length === 0) return;
  const settings = await settingsRepo.campaignSettingsOf(d.db.db, workspaceId);
  const keywords = new Set([...optOutWords, ...settings.optOutKeywords.map((k) => normalised(k))]);
  const contacts = await campaignContacts.contactsByPhones(d.db.db, workspaceId, [...new Set(items.map((i) => i.phoneNumber))]);
  const out = new Map<string, InboundItem>();
  const back = new Set<string>();
  for (const item of items) {
    const contact = contacts.get(item.phoneNumber);
    if (!contact) continue;
    const words = normalised(item.content.text);
    if (keywords.has(words)) out.set(contact.id, item);
    else if (optInWords.has(words)) back.add(contact.id);
  }
  const changed = await d.db.transaction(async (tx) => {
    await logLines.markReplied(tx, workspaceId, [...contacts.values()].map((c) => c.id));
    const optedOut = await campaignContacts.setOptedOut(tx, workspaceId, [...out.keys()], true);
    const optedIn = await campaignContacts.setOptedOut(tx, workspaceId, [...back].filter((id) => !out.has(id)), false);
    const all = [...optedOut, ...optedIn];
    await appendEvents(tx, workspaceId, all.map((c) => ({ type: 'contact.updated' as const, payload: { contact: toContact(c) } })));
    return optedOut;
  });
  if (!settings.optOutConfirmation.trim()) return;
  // The customer just wrote, so the 24-hour window is open: a free-form confirmation may go.
  for (const contact of changed) {
    const item = out.get(contact.id)!;
    await d.jobs.send('messages.send', {
      workspaceId,
      actor: { type: 'system' },
      target: { contactId: contact.id, whatsappAccountId: item.account.id },
      content: { type: 'text', text: settings.optOutConfirmation },
      idempotencyKey: `optout:${item.wamid}`,
    });
  }
}

/** A status webhook of a wamid, inside its transaction: the campaign log line follows it. */
export async function campaignStatusApplied(
  tx: Executor,
  workspaceId: string,
  wamid: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  failure: { code: number | null; reason: string | null },
): Promise<string[]> {
  return logLines.applyDeliveryStatus(tx, workspaceId, wamid, status, failure);
}
