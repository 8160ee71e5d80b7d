/**
 * The `whatsapp.webhook` job: turns one verified webhook delivery into contacts, conversations, messages,
 * delivery statuses and template statuses. Every step is idempotent (a delivery seen twice is stored once,
 * statuses never move backwards), so a retried job or a re-sent delivery changes nothing the second time.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import * as ch from '../repositories/channel';
import * as conv from '../repositories/conversations';
import { toTemplate } from '../repositories/resources';
import { failureReasonOf } from './failure-reasons';
import {
  type InboundMedia,
  InboundMessage,
  MessagesValue,
  QualityUpdateValue,
  StatusUpdate,
  TemplateStatusValue,
  WebhookPayload,
} from './webhook-payload';
import type { ChannelDeps } from './channel-deps';
import { type InboundItem, type MessageContent, storeInboundBatch } from './inbound-batch';
import { appendEvent, appendEvents, type NewEvent } from '../repositories/event-log';
import { campaignInboundCommitted, campaignStatusApplied } from '../campaigns/inbound-hooks';
import { botsInboundCommitted } from '../bots/inbound-hook';

export const WEBHOOK_JOB = 'whatsapp.webhook';

/**
 * A status can overtake the send it is about: Meta (or the sandbox) may deliver `sent` before the send's answer
 * has been stored. A status for an unknown wamid younger than this is retried by the job instead of dropped.
 */
const statusGraceMs = 120_000;
/** How many times a delivery is retried for such a status (pg-boss backs off: about 35 s in all by default). */
const statusRetries = 3;
export class StatusNotYetKnown extends Error {
  constructor() {
    super('a status arrived for a message that is not stored yet; retried later');
  }
}

/** One webhook delivery as queued: the verified payload, when it arrived, and how many times it was tried. */
export interface WebhookDelivery {
  payload: unknown;
  receivedAt?: number;
  attempt?: number;
}

/** E.164 of a wa_id (digits with country code); a number libphonenumber cannot place is kept as +digits. */
export function e164OfWaId(waId: string): { phoneNumber: string; country: string | null } {
  const digits = waId.replace(/\D/g, '');
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (parsed?.isValid()) return { phoneNumber: parsed.number, country: parsed.country ?? null };
  return { phoneNumber: `+${digits}`, country: null };
}

function timeOf(ts: string | undefined): Date {
  const n = ts ? Number(ts) : NaN;
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000) : new Date();
}

export function webhookProcessor(d: ChannelDeps) {
  const db = () => d.db.db;

  /** Fetches an inbound media file from the Graph API and keeps it in the file store; null if it cannot. */
  async function keepMedia(account: ch.AccountRow, media: InboundMedia, kind: string): Promise<string | null> {
    if (!d.media) return null;
    try {
      const file = await d.media.download(account, media.id);
      const ext = (media.mime_type ?? file.mimeType).split('/')[1]?.split(';')[0] ?? 'bin';
      const stored = await d.files.put({
        workspaceId: account.workspaceId,
        area: 'whatsapp-media',
        fileName: media.filename ?? `${kind}-${media.id}.${ext}`,
        mimeType: media.mime_type ?? file.mimeType,
        data: file.data,
      });
      return stored.url;
    } catch (err) {
      d.log.warn({ err, mediaId: media.id }, 'inbound media could not be fetched; the message is stored without it');
      return null;
    }
  }

  /** What Parley stores of an inbound message; null for kinds that are not messages of the conversation. */
  async function contentOf(account: ch.AccountRow, m: InboundMessage): Promise<MessageContent | null> {
    const base = { header: null, action: null, footer: null, mediaUrl: null, text: null };
    const context = m.context?.id ? { context: { id: m.context.id } } : {};
    switch (m.type) {
      case 'text':
        return { ...base, type: 'text', text: m.text?.body ?? '' };
      case 'interactive': {
        const i = m.interactive;
        if (i?.type === 'button_reply' && i.button_reply) {
          return { ...base, type: 'reply', text: i.button_reply.title, action: { type: 'button_reply', ...i.button_reply, ...context } };
        }
        if (i?.type === 'list_reply' && i.list_reply) {
          return { ...base, type: 'list', text: i.list_reply.title, action: { type: 'list_reply', ...i.list_reply, ...context } };
        }
        if (i?.type === 'nfm_reply' && i.nfm_reply) {
          let response: unknown = i.nfm_reply.response_json;
          try {
            response = JSON.parse(i.nfm_reply.response_json);
          } catch {
            // Kept as the string Meta sent.
          }
          return {
            ...base,
            type: 'flow',
            text: i.nfm_reply.body ?? null,
            action: { type: 'nfm_reply', name: i.nfm_reply.name ?? 'flow', response_json: response, ...context },
          };
        }
        return { ...base, type: 'text', text: `Unsupported interactive reply (${i?.type ?? 'unknown'})` };
      }
      case 'button':
        // A tap on a template's quick-reply button.
        return { ...base, type: 'reply', text: m.button?.text ?? '', action: { type: 'button', payload: m.button?.payload ?? null, ...context } };
      case 'image':
      case 'video':
      case 'document':
      case 'audio':
      case 'sticker': {
        const media = m[m.type];
        if (!media) return { ...base, type: 'text', text: `Empty ${m.type} message` };
        // The product's message types have no audio or sticker: a voice note is a document, a sticker an image.
        const type = m.type === 'audio' ? 'document' : m.type === 'sticker' ? 'image' : m.type;
        return {
          ...base,
          type,
          text: media.caption ?? null,
          mediaUrl: await keepMedia(account, media, m.type),
          header: {
            type: m.type,
            mediaId: media.id,
            mimeType: media.mime_type ?? null,
            ...(media.filename ? { filename: media.filename } : {}),
          },
        };
      }
      case 'location': {
        const l = m.location;
        if (!l) return { ...base, type: 'text', text: 'Location' };
        const label = [l.name, l.address].filter(Boolean).join(', ');
        return { ...base, type: 'text', text: `${label ? `${label} ` : ''}(${l.latitude}, ${l.longitude})`, action: { type: 'location', ...l } };
      }
      case 'reaction':
        // A reaction is about another message, not a message of its own.
        return null;
      default:
        return { ...base, type: 'text', text: `This message type is not supported yet (${m.type})` };
    }
  }

  /**
   * The statuses of a batch of deliveries, one transaction per workspace (one transaction per status before: a
   * bot's or a campaign's sent / delivered / read webhooks cost a commit each and took the workspace's event lock
   * once per status). Applied in wamid order (the same row lock order in every batch; statuses never move
   * backwards, so the order of one message's statuses changes nothing), their `message.status` events appended
   * last in one insert. Answers, by position in `list`, false for a status about a wamid not stored yet but so
   * recent that its send may still be committing, or the error to retry its delivery with.
   */
  async function ingestStatuses(list: { account: ch.AccountRow; s: StatusUpdate }[]): Promise<(boolean | Error)[]> {
    const out: (boolean | Error)[] = list.map(() => true);
    const byWs = new Map<string, number[]>();
    list.forEach(({ account, s }, i) => {
      if (s.status !== 'sent' && s.status !== 'delivered' && s.status !== 'read' && s.status !== 'failed') return;
      const l = byWs.get(account.workspaceId) ?? [];
      l.push(i);
      byWs.set(account.workspaceId, l);
    });
    for (const [ws, indexes] of byWs) {
      const ordered = [...indexes].sort((a, b) => (list[a].s.id < list[b].s.id ? -1 : list[a].s.id > list[b].s.id ? 1 : a - b));
      const changed = new Set<string>();
      try {
        await d.db.transaction(async (tx) => {
          const events: NewEvent[] = [];
          for (const i of ordered) {
            const s = list[i].s;
            const status = s.status as 'sent' | 'delivered' | 'read' | 'failed';
            const updated = await ch.applyStatus(tx, ws, s.id, status, status === 'failed' ? failureReasonOf(s.errors) : null);
            // Campaigns (issue 17): the log line of a campaign's message follows its status, never backwards.
            const failure = { code: s.errors?.[0]?.code ?? null, reason: status === 'failed' ? failureReasonOf(s.errors) : null };
            await campaignStatusApplied(tx, ws, s.id, status, failure);
            if (updated) {
              changed.add(s.id);
              events.push({ type: 'message.status', payload: { message: conv.toMessage(updated) } });
            }
          }
          await appendEvents(tx, ws, events);
        });
      } catch (err) {
        for (const i of indexes) out[i] = err instanceof Error ? err : new Error(String(err));
        continue;
      }
      const unknown = [...new Set(indexes.map((i) => list[i].s.id).filter((w) => !changed.has(w)))];
      const stored = unknown.length > 0 ? await ch.storedWamids(db(), ws, unknown) : new Set<string>();
      for (const i of indexes) {
        const s = list[i].s;
        if (changed.has(s.id) || stored.has(s.id)) continue;
        out[i] = Date.now() - timeOf(s.timestamp).getTime() > statusGraceMs;
      }
    }
    return out;
  }

  /** The inbound messages and statuses of one `messages` change; null when it has none Parley can use. */
  async function readMessagesChange(value: unknown, receivedAt: number, accountOf: (phoneNumberId: string) => Promise<ch.AccountRow | null>) {
    const parsed = MessagesValue.safeParse(value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'webhook change without usable metadata dropped');
      return null;
    }
    const v = parsed.data;
    const account = await accountOf(v.metadata.phone_number_id);
    if (!account) {
      d.log.warn({ phoneNumberId: v.metadata.phone_number_id }, 'webhook for an unknown phone number id dropped');
      return null;
    }
    const names = new Map((v.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
    const messages: { m: InboundMessage; profileName: string | undefined; receivedAt: Date }[] = [];
    for (const [i, raw] of (v.messages ?? []).entries()) {
      const m = InboundMessage.safeParse(raw);
      if (!m.success) {
        d.log.warn({ issues: m.error.issues.slice(0, 5) }, 'malformed inbound message dropped');
        continue;
      }
      // Messages of one delivery keep their order (1 ms apart).
      messages.push({ m: m.data, profileName: names.get(m.data.from), receivedAt: new Date(receivedAt + i) });
    }
    const statuses: StatusUpdate[] = [];
    for (const raw of v.statuses ?? []) {
      const s = StatusUpdate.safeParse(raw);
      if (!s.success) {
        d.log.warn({ issues: s.error.issues.slice(0, 5) }, 'malformed status update dropped');
        continue;
      }
      statuses.push(s.data);
    }
    for (const e of v.errors ?? []) d.log.warn({ code: e.code, title: e.title, accountId: account.id }, 'WhatsApp reported an error');
    return { account, messages, statuses };
  }

  /** Issue 19 part B: the committed messages go to auto-assignment; a failure there never fails the delivery. */
  async function afterInbound(workspaceId: string, stored: Set<string>): Promise<void> {
    if (!d.afterInbound || stored.size === 0) return;
    await d.afterInbound(workspaceId, [...stored]).catch((err: unknown) => d.log.warn({ err, workspaceId }, 'auto-assignment failed'));
  }

  /**
   * Campaigns' hook after inbound messages committed (issue 17: opt-out, START, replies). Its own call: a
   * failure is logged and never makes the stored messages count as failed.
   */
  async function campaignsAfterInbound(ws: string, items: InboundItem[]): Promise<void> {
    try {
      await campaignInboundCommitted(d, ws, items);
    } catch (err) {
      d.log.warn({ err, workspaceId: ws }, 'campaign opt-out and reply handling of inbound messages failed');
    }
  }

  /**
   * Bots' hook after inbound messages committed (issue 18: start or continue a bot session). Its own call: a
   * failure is logged and never makes the stored messages count as failed.
   */
  async function botsAfterInbound(ws: string, items: InboundItem[]): Promise<void> {
    try {
      await botsInboundCommitted(d, ws, items);
    } catch (err) {
      d.log.warn({ err, workspaceId: ws }, 'bot handling of inbound messages failed');
    }
  }

  /**
   * Stores the inbound messages of a batch, one transaction per workspace. If a workspace's batch fails, its
   * messages are tried one by one, so one bad message fails only its own delivery. Answers the failures by
   * delivery index.
   */
  async function storeMessages(pending: { index: number; item: InboundItem }[]): Promise<Map<number, unknown>> {
    const failed = new Map<number, unknown>();
    const byWorkspace = new Map<string, { index: number; item: InboundItem }[]>();
    for (const p of pending) {
      const list = byWorkspace.get(p.item.account.workspaceId) ?? [];
      list.push(p);
      byWorkspace.set(p.item.account.workspaceId, list);
    }
    for (const [ws, list] of byWorkspace) {
      try {
        const stored = await d.db.transaction((tx) => storeInboundBatch(tx, ws, list.map((p) => p.item)));
        await campaignsAfterInbound(ws, list.map((p) => p.item));
        await botsAfterInbound(ws, list.map((p) => p.item));
        await afterInbound(ws, stored);
      } catch (err) {
        if (list.length === 1) {
          failed.set(list[0].index, err);
          continue;
        }
        d.log.warn({ err, messages: list.length }, 'a batch of inbound messages failed; storing them one by one');
        for (const p of list) {
          try {
            const stored = await d.db.transaction((tx) => storeInboundBatch(tx, ws, [p.item]));
            await campaignsAfterInbound(ws, [p.item]);
            await botsAfterInbound(ws, [p.item]);
            await afterInbound(ws, stored);
          } catch (one) {
            failed.set(p.index, one);
          }
        }
      }
    }
    return failed;
  }

  async function ingestTemplateStatus(wabaId: string, value: unknown, at: Date | undefined) {
    const parsed = TemplateStatusValue.safeParse(value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'malformed template status update dropped');
      return;
    }
    const v = parsed.data;
    const accounts = await ch.accountsByWaba(db(), wabaId);
    const templates = await ch.templatesByMetaId(db(), accounts.map((a) => a.id), v.message_template_id);
    for (const tpl of templates) {
      await d.db.transaction(async (tx) => {
        const row = await ch.setTemplateStatus(tx, tpl.workspaceId, tpl.id, v.event, at);
        if (row) await appendEvent(tx, tpl.workspaceId, 'template.status', { template: toTemplate(row) });
      });
    }
    if (templates.length === 0) {
      d.log.info({ templateId: v.message_template_id }, 'status update for a template Parley does not know: syncing its numbers');
      if (accounts.length > 0) await d.afterUnknownTemplate?.(accounts);
    }
  }

  /** phone_number_quality_update: the number on that WABA whose display digits the value names. */
  async function ingestQualityUpdate(wabaId: string, value: unknown) {
    const parsed = QualityUpdateValue.safeParse(value);
    if (!parsed.success) {
      d.log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'malformed phone number quality update dropped');
      return;
    }
    const digits = parsed.data.display_phone_number.replace(/\D/g, '');
    const accounts = (await ch.accountsByWaba(db(), wabaId)).filter((a) => a.phoneNumber.replace(/\D/g, '') === digits);
    for (const account of accounts) await d.afterQualityUpdate?.(account, parsed.data);
    if (accounts.length === 0) d.log.info({ wabaId }, 'quality update for a number Parley does not know');
  }

  /**
   * The job handler: webhook deliveries, already verified by their signatures, handled together. Answers the
   * deliveries to retry, by index: a status waiting for its message (up to statusRetries attempts, `attempt` being
   * the job's retry count) or a failure. Everything else is stored; a retry re-runs the whole delivery, which
   * skips what is stored already.
   */
  async function processDeliveries(deliveries: WebhookDelivery[]): Promise<Map<number, unknown>> {
    const retry = new Map<number, unknown>();
    const accounts = new Map<string, Promise<ch.AccountRow | null>>();
    const accountOf = (phoneNumberId: string) => {
      let a = accounts.get(phoneNumberId);
      if (!a) accounts.set(phoneNumberId, (a = ch.accountByPhoneNumberId(db(), phoneNumberId)));
      return a;
    };
    const changes: { index: number; account: ch.AccountRow; messages: NonNullable<Awaited<ReturnType<typeof readMessagesChange>>> }[] = [];
    const templates: { index: number; wabaId: string; value: unknown; at: Date | undefined }[] = [];
    const qualities: { index: number; wabaId: string; value: unknown }[] = [];
    for (const [index, delivery] of deliveries.entries()) {
      const parsed = WebhookPayload.safeParse(delivery.payload);
      if (!parsed.success) {
        d.log.warn('webhook delivery that is not a WhatsApp Business payload dropped');
        continue;
      }
      for (const entry of parsed.data.entry) {
        for (const change of entry.changes) {
          if (change.field === 'messages') {
            const read = await readMessagesChange(change.value, delivery.receivedAt ?? Date.now(), accountOf);
            if (read) changes.push({ index, account: read.account, messages: read });
          } else if (change.field === 'message_template_status_update') templates.push({ index, wabaId: entry.id, value: change.value, at: entry.time ? new Date(entry.time * 1000) : undefined });
          else if (change.field === 'phone_number_quality_update') qualities.push({ index, wabaId: entry.id, value: change.value });
          else d.log.debug({ field: change.field }, 'webhook field not used by Parley');
        }
      }
    }

    // Messages: drop repeated deliveries (stored already, or twice in this batch), then store the rest.
    const seen = new Set<string>();
    const pending: { index: number; account: ch.AccountRow; m: InboundMessage; profileName: string | undefined; receivedAt: Date }[] = [];
    const wamidsOf = new Map<string, string[]>();
    for (const { account, messages } of changes) {
      const list = wamidsOf.get(account.workspaceId) ?? [];
      list.push(...messages.messages.map((x) => x.m.id));
      wamidsOf.set(account.workspaceId, list);
    }
    const stored = new Set<string>();
    for (const [ws, wamids] of wamidsOf) for (const w of await ch.storedWamids(db(), ws, wamids)) stored.add(`${ws}:${w}`);
    for (const { index, account, messages } of changes) {
      for (const message of messages.messages) {
        const key = `${account.workspaceId}:${message.m.id}`;
        if (stored.has(key) || seen.has(key)) continue;
        seen.add(key);
        pending.push({ index, account, ...message });
      }
    }
    const items = await Promise.all(
      pending.map(async ({ index, account, m, profileName, receivedAt }) => {
        const content = await contentOf(account, m);
        if (!content) return null;
        const item: InboundItem = {
          account,
          wamid: m.id,
          phoneNumber: e164OfWaId(m.from).phoneNumber,
          profileName: profileName?.trim() || null,
          content,
          at: receivedAt,
          sentAt: new Date(Math.min(timeOf(m.timestamp).getTime(), receivedAt.getTime())),
        };
        return { index, item };
      }),
    );
    for (const [index, err] of await storeMessages(items.filter((x) => x !== null))) retry.set(index, err);

    const statuses = changes.flatMap(({ index, account, messages }) => messages.statuses.map((s) => ({ index, account, s })));
    const results = await ingestStatuses(statuses);
    results.forEach((known, i) => {
      const { index } = statuses[i];
      if (known instanceof Error) retry.set(index, known);
      else if (!known && (deliveries[index].attempt ?? 0) < statusRetries && !retry.has(index)) retry.set(index, new StatusNotYetKnown());
    });
    for (const { index, wabaId, value, at } of templates) {
      try {
        await ingestTemplateStatus(wabaId, value, at);
      } catch (err) {
        retry.set(index, err);
      }
    }
    for (const { index, wabaId, value } of qualities) {
      try {
        await ingestQualityUpdate(wabaId, value);
      } catch (err) {
        retry.set(index, err);
      }
    }
    return retry;
  }

  return {
    processDeliveries,
    /** One delivery; throws when it should be retried (see processDeliveries). */
    async processWebhook(payload: unknown, receivedAt = Date.now(), attempt = 0): Promise<void> {
      const retry = await processDeliveries([{ payload, receivedAt, attempt }]);
      if (retry.size > 0) throw retry.get(0);
    },
  };
}
