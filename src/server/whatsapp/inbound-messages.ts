/**
 * The `messages` webhook field: customers' messages (stored a batch per workspace and transaction, then handed
 * to the registered handlers) and the statuses of the messages Parley sent (inbound-statuses.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import * as ch from '../repositories/channel';
import { type InboundItem, storeInboundBatch } from './inbound-batch';
import type { MessageContents } from './inbound-contents';
import type { FieldChange, FieldHandler, InboundHandler, Retries } from './inbound-pipeline';
import { StatusNotYetKnown, inboundStatuses, statusWaitSeconds, timeOf } from './inbound-statuses';
import { InboundMessage, MessagesValue, StatusUpdate } from './webhook-payload';
import { customerOf, senderEntry } from './customer-identity';
import type { CustomerIdentity } from '../repositories/customer-identities';
import type { SystemMessages } from './system-messages';
import type { Metrics } from '../metrics/metrics';

export interface MessagesDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn'>;
  contents: MessageContents;
  system: SystemMessages;
  /** Counts inbound messages by number and outcome, and the lag of messages and statuses. */
  metrics?: Pick<Metrics, 'messages' | 'webhookLagSeconds'>;
}

interface ReceivedMessage {
  m: InboundMessage;
  customer: CustomerIdentity;
  receivedAt: Date;
}
interface MessagesChange {
  index: number;
  account: ch.AccountRow;
  messages: ReceivedMessage[];
  /** Changes of a customer's identity (system-messages.ts). */
  system: ReceivedMessage[];
  statuses: StatusUpdate[];
}
type Pending = { index: number; item: InboundItem };

/** Identity changes after the batch's messages (a message stored just before a change belongs to the old identity). */
async function applySystemMessages(system: SystemMessages, read: MessagesChange[], retry: Retries): Promise<void> {
  for (const { index, account, system: list } of read) {
    for (const s of list) {
      try {
        await system.apply(account, s.m, s.customer);
      } catch (err) {
        retry.set(index, err);
      }
    }
  }
}

type InboundOutcome = 'stored' | 'duplicate' | 'failed';
const countInbound = (d: MessagesDeps, account: ch.AccountRow, outcome: InboundOutcome) =>
  d.metrics?.messages.inc({ direction: 'in', number: account.phoneNumberId, outcome });

/** Counts a workspace's committed batch: each message stored now (and its lag from Meta's timestamp) or stored meanwhile. */
function countStored(d: MessagesDeps, items: InboundItem[], stored: Set<string>): void {
  const storedAt = Date.now();
  for (const item of items) {
    const fresh = stored.has(item.wamid);
    countInbound(d, item.account, fresh ? 'stored' : 'duplicate');
    if (fresh) d.metrics?.webhookLagSeconds.observe({ kind: 'message' }, Math.max(0, storedAt - item.sentAt.getTime()) / 1000);
  }
}

/** Drops repeated deliveries (stored already, or twice in this batch). */
async function newMessages(d: MessagesDeps, changes: MessagesChange[]): Promise<(ReceivedMessage & { index: number; account: ch.AccountRow })[]> {
  const wamidsOf = new Map<string, string[]>();
  for (const { account, messages } of changes) {
    const list = wamidsOf.get(account.workspaceId) ?? [];
    list.push(...messages.map((x) => x.m.id));
    wamidsOf.set(account.workspaceId, list);
  }
  const seen = new Set<string>();
  for (const [ws, wamids] of wamidsOf) for (const w of await ch.storedWamids(d.db.db, ws, wamids)) seen.add(`${ws}:${w}`);
  const fresh: (ReceivedMessage & { index: number; account: ch.AccountRow })[] = [];
  for (const { index, account, messages } of changes) {
    for (const message of messages) {
      const key = `${account.workspaceId}:${message.m.id}`;
      if (seen.has(key)) {
        countInbound(d, account, 'duplicate');
        continue;
      }
      seen.add(key);
      fresh.push({ index, account, ...message });
    }
  }
  return fresh;
}

export function inboundMessages(d: MessagesDeps, handlers: InboundHandler[]): FieldHandler {
  const statuses = inboundStatuses(d, handlers);

  /** The inbound messages and statuses of one `messages` change; null when it has none Parley can use. */
  async function readChange(change: FieldChange, accountOf: (phoneNumberId: string) => Promise<ch.AccountRow | null>): Promise<MessagesChange | null> {
    const parsed = MessagesValue.safeParse(change.value);
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
    const messages: ReceivedMessage[] = [];
    const system: ReceivedMessage[] = [];
    for (const [i, raw] of (v.messages ?? []).entries()) {
      const m = InboundMessage.safeParse(raw);
      if (!m.success) {
        d.log.warn({ issues: m.error.issues.slice(0, 5) }, 'malformed inbound message dropped');
        continue;
      }
      const customer = customerOf(m.data, senderEntry(m.data, v.contacts ?? []));
      if (!customer) {
        d.log.warn({ wamid: m.data.id }, 'inbound message naming neither a phone number nor a user id dropped');
        continue;
      }
      // Messages of one delivery keep their order (1 ms apart).
      (m.data.type === 'system' ? system : messages).push({ m: m.data, customer, receivedAt: new Date(change.receivedAt + i) });
    }
    const statusList: StatusUpdate[] = [];
    for (const raw of v.statuses ?? []) {
      const s = StatusUpdate.safeParse(raw);
      if (!s.success) {
        d.log.warn({ issues: s.error.issues.slice(0, 5) }, 'malformed status update dropped');
        continue;
      }
      statusList.push(s.data);
    }
    for (const e of v.errors ?? []) d.log.warn({ code: e.code, title: e.title, accountId: account.id }, 'WhatsApp reported an error');
    return { index: change.index, account, messages, system, statuses: statusList };
  }

  async function readChanges(changes: FieldChange[]): Promise<MessagesChange[]> {
    const accounts = new Map<string, Promise<ch.AccountRow | null>>();
    const accountOf = (phoneNumberId: string) => {
      let a = accounts.get(phoneNumberId);
      if (!a) accounts.set(phoneNumberId, (a = ch.accountByPhoneNumberId(d.db.db, phoneNumberId)));
      return a;
    };
    const read: MessagesChange[] = [];
    for (const change of changes) {
      const r = await readChange(change, accountOf);
      if (r) read.push(r);
    }
    return read;
  }

  /** What each new message is stored as (its media fetched meanwhile); reactions and the like are left out. */
  async function itemsOf(fresh: Awaited<ReturnType<typeof newMessages>>): Promise<Pending[]> {
    const items = await Promise.all(
      fresh.map(async ({ index, account, m, customer, receivedAt }) => {
        const content = await d.contents.contentOf(account, m);
        if (!content) return null;
        const item: InboundItem = {
          account,
          wamid: m.id,
          customer,
          content,
          at: receivedAt,
          sentAt: new Date(Math.min(timeOf(m.timestamp).getTime(), receivedAt.getTime())),
        };
        return { index, item };
      }),
    );
    return items.filter((x) => x !== null);
  }

  /** Stores one workspace's messages in one transaction, then hands them to each handler in turn. */
  async function storeAndHandle(ws: string, items: InboundItem[]): Promise<void> {
    const batch = await d.db.transaction((tx) => storeInboundBatch(tx, ws, items));
    countStored(d, items, batch.stored);
    for (const h of handlers) {
      if (!h.onMessagesStored) continue;
      try {
        await h.onMessagesStored(ws, batch);
      } catch (err) {
        d.log.warn({ err, workspaceId: ws }, h.failureMessage);
      }
    }
  }

  /**
   * Stores the inbound messages of a batch, one transaction per workspace. If a workspace's batch fails, its
   * messages are tried one by one, so one bad message fails only its own delivery. Answers the failures by
   * delivery index.
   */
  async function storeMessages(pending: Pending[]): Promise<Retries> {
    const failed: Retries = new Map();
    const byWorkspace = new Map<string, Pending[]>();
    for (const p of pending) {
      const list = byWorkspace.get(p.item.account.workspaceId) ?? [];
      list.push(p);
      byWorkspace.set(p.item.account.workspaceId, list);
    }
    for (const [ws, list] of byWorkspace) {
      try {
        await storeAndHandle(ws, list.map((p) => p.item));
      } catch (err) {
        if (list.length === 1) {
          countInbound(d, list[0].item.account, 'failed');
          failed.set(list[0].index, err);
          continue;
        }
        d.log.warn({ err, messages: list.length }, 'a batch of inbound messages failed; storing them one by one');
        for (const p of list) {
          try {
            await storeAndHandle(ws, [p.item]);
          } catch (one) {
            countInbound(d, p.item.account, 'failed');
            failed.set(p.index, one);
          }
        }
      }
    }
    return failed;
  }

  /**
   * Messages first (a status may be about a message of the same batch), then statuses. A delivery is retried
   * for a message that failed to store, a status whose transaction failed, or a status waiting for its message
   * (as many times as statusWaitSeconds has waits).
   */
  async function handle(changes: FieldChange[]): Promise<Retries> {
    const read = await readChanges(changes);
    const retry = await storeMessages(await itemsOf(await newMessages(d, read)));
    await applySystemMessages(d.system, read, retry);
    const waitsOf = new Map(changes.map((c) => [c.index, c.waits]));
    const list = read.flatMap(({ index, account, statuses: s }) => s.map((x) => ({ index, account, s: x })));
    const results = await statuses.applyStatuses(list);
    results.forEach((known, i) => {
      const { index } = list[i];
      if (known instanceof Error) retry.set(index, known);
      else if (!known && (waitsOf.get(index) ?? 0) < statusWaitSeconds.length && !retry.has(index)) retry.set(index, new StatusNotYetKnown(waitsOf.get(index) ?? 0));
    });
    return retry;
  }

  return { field: 'messages', handle };
}
