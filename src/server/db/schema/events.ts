/** The workspace event log. */
import { bigint, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, workspaceId } from './columns';

/** Append-only log of what members should see change; feeds the realtime stream and desktop sync. */
export const workspaceEvents = pgTable(
  'workspace_events',
  {
    workspaceId: workspaceId(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.seq] })],
);
