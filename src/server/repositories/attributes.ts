/**
 * SQL of `attributes` beyond the shared CRUD (resources.ts `attributes`), and of the attribute values contacts
 * keep by attribute name (`contacts.attributes`, jsonb): renaming or deleting an attribute carries them along.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';
import * as t from '../db/schema';

export type AttributeRow = typeof t.attributes.$inferSelect;

/** The workspace's attributes, oldest first. */
export async function attributesOf(ex: Executor, workspaceId: string): Promise<AttributeRow[]> {
  return ex.select().from(t.attributes).where(eq(t.attributes.workspaceId, workspaceId)).orderBy(asc(t.attributes.createdAt));
}

/** Contacts' values of the attribute `from` move to the name `to`. */
export async function renameAttributeValues(ex: Executor, workspaceId: string, from: string, to: string): Promise<void> {
  await ex.execute(sql`
    update ${t.contacts}
    set attributes = (attributes - ${from}::text) || jsonb_build_object(${to}::text, attributes -> ${from}::text)
    where workspace_id = ${workspaceId} and attributes ? ${from}::text`);
}

/** Contacts lose their value of the attribute `name`. */
export async function removeAttributeValues(ex: Executor, workspaceId: string, name: string): Promise<void> {
  await ex.execute(sql`
    update ${t.contacts} set attributes = attributes - ${name}::text
    where workspace_id = ${workspaceId} and attributes ? ${name}::text`);
}

export interface AttributeUser {
  type: 'segment' | 'bot' | 'campaign';
  id: string;
  name: string;
}

/** Segments filtering on the attribute (by name), bots and campaigns whose canvas names it (by id). */
export async function attributeUsers(ex: Executor, workspaceId: string, attributeId: string, name: string): Promise<AttributeUser[]> {
  const idPattern = `%"${attributeId}"%`;
  return rowsOf<AttributeUser>(
    await ex.execute(sql`
      select 'segment' as type, id::text as id, name from ${t.segments}
      where workspace_id = ${workspaceId}
        and exists (select 1 from jsonb_array_elements(filters) f where lower(f ->> 'column') = lower(${name}::text))
      union all
      select 'bot', id::text, title from ${t.bots} where workspace_id = ${workspaceId} and rf_instance::text like ${idPattern}
      union all
      select 'campaign', id::text, name from ${t.campaigns} where workspace_id = ${workspaceId} and rf_instance::text like ${idPattern}
      order by 1, 3`),
  );
}
