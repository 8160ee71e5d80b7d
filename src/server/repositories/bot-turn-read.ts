/**
 * What a bot turn on inbound messages reads, in one round trip: the conversation and its running session, both
 * locked; whether people have it; the customer's messages to apply; the workspace's attributes with the contact's
 * and the conversation's values; the number's live bot; and the published versions the turn may run that the
 * caller has not cached yet.
 *
 * One statement has one snapshot, taken before its locks are granted: a turn of the same conversation that
 * committed meanwhile (it held the lock) is not seen by the statement's other reads. Every turn writes the
 * session row, and a session start writes the conversation row, so the statement compares the versions (xmin) it
 * locked with those of its snapshot and answers `stale` when they differ; the caller then reads again, under the
 * locks it now holds, with a snapshot taken after that commit.
 */
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';
import type { ConversationRow, TurnFacts } from './bot-sessions';
import type { BotVersionRow } from './bot-versions';
import { tableRow } from './table-rows';

/** A customer's message as a turn applies it. */
interface InboundToApply {
  id: string;
  type: string;
  text: string | null;
  action: unknown;
  createdAt: Date;
}

/** The workspace's attributes and the values known before the session's answers. */
export interface TurnValues {
  attributes: { id: string; name: string; format: string; type: string }[];
  contact: Record<string, unknown>;
  conversation: Record<string, string>;
}

export interface TurnRead {
  /** The conversation, locked (null: it does not exist). */
  conversation: ConversationRow | null;
  /** A turn committed after this statement's snapshot: read again (see the file's comment). */
  stale: boolean;
  facts: TurnFacts;
  messages: InboundToApply[];
  values: TurnValues;
  /** The active bot of the conversation's number, with its published version. */
  live: { botId: string; workspaceId: string; versionId: string } | null;
  /** The running session's and the live bot's versions, except those named in `cachedVersionIds`. */
  versions: BotVersionRow[];
}

type Row = {
  conversation: Record<string, unknown> | null;
  stale: boolean;
  session: Record<string, unknown> | null;
  in_session: boolean | null;
  since_open: boolean;
  opted_out: boolean | null;
  keywords: string[] | null;
  messages: { id: string; type: string; text: string | null; action: unknown; created_at: string }[] | null;
  attributes: TurnValues['attributes'] | null;
  contact: Record<string, unknown> | null;
  values: Record<string, string> | null;
  live: TurnRead['live'];
  versions: Record<string, unknown>[] | null;
};

/**
 * The turn's reads for the customer's messages of `conversationId` after the session's `handledUntil` (or from
 * `from` when no session runs), up to `upTo`, oldest first (100 at most).
 */
export async function readTurn(ex: Executor, ws: string, conversationId: string, from: Date, upTo: Date, cachedVersionIds: string[]): Promise<TurnRead> {
  const [row] = rowsOf<Row>(
    await ex.execute(sql`
      with c as (select cv.*, cv.xmin::text as version_of_row from ${t.conversations} cv
                  where cv.workspace_id = ${ws} and cv.id = ${conversationId} for update),
           s as (select bs.*, bs.xmin::text as version_of_row from ${t.botSessions} bs join c on bs.conversation_id = c.id
                  where bs.workspace_id = ${ws} and bs.status = 'active' limit 1 for update of bs),
           seen as (select (select cv.xmin::text from ${t.conversations} cv where cv.workspace_id = ${ws} and cv.id = ${conversationId}) as c,
                           (select bs.xmin::text from ${t.botSessions} bs where bs.workspace_id = ${ws} and bs.conversation_id = ${conversationId}
                             and bs.status = 'active' limit 1) as s),
           closed as (select max(e.created_at) as at from ${t.conversationEvents} e
                       where e.workspace_id = ${ws} and e.conversation_id = ${conversationId} and e.data->>'type' = 'CONVERSATION_CLOSED'),
           live as (select b.id, b.workspace_id, b.published_version_id from ${t.bots} b, c
                     where b.whatsapp_account_id = c.whatsapp_account_id and b.is_active and b.published_version_id is not null limit 1)
      select (select row_to_json(c) from c) as conversation,
             (select c.version_of_row from c) is distinct from (select seen.c from seen)
               or (select s.version_of_row from s) is distinct from (select seen.s from seen) as stale,
             (select row_to_json(s) from s) as session,
             exists (select 1 from ${t.messages} m, s where m.workspace_id = ${ws} and m.conversation_id = ${conversationId}
                      and m.creator = 'agent' and m.created_at > s.created_at) as in_session,
             exists (select 1 from ${t.messages} m where m.workspace_id = ${ws} and m.conversation_id = ${conversationId}
                      and m.creator = 'agent' and m.created_at > coalesce((select at from closed), '-infinity'::timestamptz)) as since_open,
             (select k.opted_out_at is not null from ${t.contacts} k, c where k.workspace_id = ${ws} and k.id = c.contact_id) as opted_out,
             (select w.opt_out_keywords from ${t.workspaces} w where w.id = ${ws}) as keywords,
             (select json_agg(json_build_object('id', m.id, 'type', m.type, 'text', m.text, 'action', m.action, 'created_at', m.created_at)
                              order by m.created_at, m.id)
                from (select m.id, m.type, m.text, m.action, m.created_at from ${t.messages} m
                       where m.workspace_id = ${ws} and m.conversation_id = ${conversationId} and m.creator = 'user'
                         and m.created_at > coalesce((select s.handled_until from s), ${from.toISOString()}::timestamptz - interval '1 millisecond')
                         and m.created_at <= ${upTo.toISOString()}::timestamptz
                       order by m.created_at, m.id limit 100) m) as messages,
             (select coalesce(json_agg(json_build_object('id', a.id, 'name', a.name, 'format', a.format, 'type', a.type) order by a.created_at), '[]'::json)
                from ${t.attributes} a where a.workspace_id = ${ws}) as attributes,
             (select k.attributes from ${t.contacts} k, c where k.workspace_id = ${ws} and k.id = c.contact_id) as contact,
             (select v.values from ${t.conversationAttributes} v where v.workspace_id = ${ws} and v.conversation_id = ${conversationId}) as values,
             (select json_build_object('botId', live.id, 'workspaceId', live.workspace_id, 'versionId', live.published_version_id) from live) as live,
             (select json_agg(row_to_json(v)) from ${t.botVersions} v
               where v.workspace_id = ${ws} and v.id in ((select s.bot_version_id from s), (select live.published_version_id from live))
                 and not (v.id = any(${sql.param(cachedVersionIds)}::uuid[]))) as versions`),
  );
  const session = row?.session ? tableRow(t.botSessions, row.session) : null;
  return {
    conversation: row?.conversation ? tableRow(t.conversations, row.conversation) : null,
    stale: row?.stale === true,
    facts: {
      session,
      agentWroteInSession: row?.in_session === true,
      agentWroteSinceOpen: row?.since_open === true,
      optedOut: row?.opted_out === true,
      optOutKeywords: row?.keywords ?? [],
    },
    messages: (row?.messages ?? []).map((m) => ({ id: m.id, type: m.type, text: m.text, action: m.action, createdAt: new Date(m.created_at) })),
    values: { attributes: row?.attributes ?? [], contact: row?.contact ?? {}, conversation: row?.values ?? {} },
    live: row?.live ?? null,
    versions: (row?.versions ?? []).map((v) => tableRow(t.botVersions, v)),
  };
}
