/**
 * What inbound WhatsApp traffic means for campaigns (called by whatsapp/ingest.ts):
 * - after a batch of inbound messages commits: a message that is only STOP, UNSUBSCRIBE or one of the
 *   workspace's own keywords (any case), or the tap of a template's marketing opt-out button ("Stop
 *   promotions"), opts the contact out of campaigns (with the workspace's confirmation, the window being open);
 *   START opts back in; any message marks the contact's campaign sends of the last 72 hours replied.
 * - inside a status webhook's transaction: the campaign log line of the wamid follows (never backwards); a
 *   marketing send WhatsApp capped (131049) gets its one retry 24 hours on.
 */
import type { Executor } from '../db/client';
import * as campaignContacts from '../repositories/campaign-contacts';
import * as logLines from '../repositories/campaign-logs';
import * as inbound from '../repositories/inbound-campaigns';
import { toContact } from '../repositories/resources';
import { appendEvents } from '../repositories/event-log';
import type { ServiceDeps } from '../services/context';
import type { StoredItem } from '../whatsapp/inbound-batch';
import { normalisedWords as normalised, optInWords, optOutWords } from '../../shared/opt-out-words';
import { marketingCapCode } from '../messaging/send-outcomes';
import { requeueCappedSends } from './send-outcomes';
import type { OptOutSource } from '../../shared/schemas/entities';

/** A tap of a template's quick-reply button (the marketing opt-out one) is the button; typed words are a keyword. */
function optOutSourceOf(item: StoredItem): OptOutSource {
  const action = item.content.action as { type?: string } | null | undefined;
  return item.content.type === 'reply' && action?.type === 'button' ? 'template_button' : 'keyword';
}

/**
 * One statement per batch reads what the batch can mean for campaigns: the workspace's keywords and, for the
 * batch's contacts, whether a campaign awaits their reply. Most batches mean nothing and stop there; replies
 * alone are one statement more; an opt-out or opt-in is one transaction with its `contact.updated` events.
 */
export async function campaignInboundCommitted(d: Pick<ServiceDeps, 'db' | 'jobs' | 'log'>, workspaceId: string, items: StoredItem[]): Promise<void> {
  if (items.length === 0) return;
  const { settings, contacts } = await inbound.campaignFactsOf(d.db.db, workspaceId, [...new Set(items.map((i) => i.contactId))]);
  const keywords = new Set([...optOutWords, ...settings.optOutKeywords.map((k) => normalised(k))]);
  const out = new Map<string, StoredItem>();
  const back = new Set<string>();
  for (const item of items) {
    const contact = contacts.get(item.contactId);
    if (!contact) continue;
    const words = normalised(item.content.text);
    if (keywords.has(words)) out.set(contact.id, item);
    else if (optInWords.has(words)) back.add(contact.id);
  }
  const replied = [...contacts.values()].filter((c) => c.awaitingReply).map((c) => c.id);
  const optIn = [...back].filter((id) => !out.has(id));
  if (out.size === 0 && optIn.length === 0) {
    await logLines.markReplied(d.db.db, workspaceId, replied);
    return;
  }
  const changed = await d.db.transaction(async (tx) => {
    await logLines.markReplied(tx, workspaceId, replied);
    const bySource = (source: OptOutSource) => [...out].filter(([, item]) => optOutSourceOf(item) === source).map(([id]) => id);
    const optedOut = [
      ...(await campaignContacts.setOptedOut(tx, workspaceId, bySource('keyword'), { source: 'keyword' })),
      ...(await campaignContacts.setOptedOut(tx, workspaceId, bySource('template_button'), { source: 'template_button' })),
    ];
    const optedIn = await campaignContacts.setOptedOut(tx, workspaceId, optIn, null);
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

/**
 * The statuses of a batch, inside its transaction: the campaign log lines follow them, one statement per round
 * (a round holds at most one status of each wamid, in the order given, so a wamid's statuses apply in order, as
 * one at a time would). Answers the campaigns whose lines changed.
 */
export async function campaignStatusesApplied(tx: Executor, workspaceId: string, list: inbound.StatusOfWamid[]): Promise<string[]> {
  const rounds: inbound.StatusOfWamid[][] = [];
  const seen = new Map<string, number>();
  for (const s of list) {
    const k = seen.get(s.wamid) ?? 0;
    seen.set(s.wamid, k + 1);
    (rounds[k] ??= []).push(s);
  }
  const changed = new Set<string>();
  for (const round of rounds) for (const id of await inbound.applyDeliveryStatuses(tx, workspaceId, round)) changed.add(id);
  await requeueCappedSends(tx, workspaceId, list.filter((s) => s.status === 'failed' && s.failure.code === marketingCapCode).map((s) => s.wamid));
  return [...changed];
}
