/**
 * The Citus readiness report (docs/citus-readiness.md), generated from the Drizzle schema with drizzle-orm's
 * getTableConfig: for each table, whether it would be distributed by `workspace_id`, a reference table or stay
 * local on the coordinator, and what Citus would refuse of it as it stands (a primary key or unique index
 * without the distribution column, a foreign key between distributed tables that does not carry it).
 */
import { SQL, is } from 'drizzle-orm';
import { type IndexColumn, PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import * as schema from '../../src/server/db/schema';

const DISTRIBUTION = 'workspace_id';

/** Tables every node needs whole: a person (members) is in many workspaces, and is looked up by Firebase uid. */
const referenceTables = new Set(['members']);
/** The workspaces themselves: distributed by their own id, so each workspace's row sits with its data. */
const tenantRoot = 'workspaces';

type Placement = 'distributed' | 'reference' | 'local';

interface TableReport {
  name: string;
  placement: Placement;
  hasWorkspaceId: boolean;
  primaryKey: string[];
  uniqueWithout: string[];
  foreignKeysWithout: string[];
}

const columnName = (c: IndexColumn | SQL) => (is(c, SQL) ? '(expression)' : (c as { name: string }).name);
const list = (cols: string[]) => cols.join(', ');

function reportOf(table: PgTable): TableReport {
  const config = getTableConfig(table);
  const columns = config.columns.map((c) => c.name);
  const hasWorkspaceId = columns.includes(DISTRIBUTION);
  const placement: Placement =
    config.name === tenantRoot || hasWorkspaceId ? 'distributed' : referenceTables.has(config.name) ? 'reference' : 'local';
  // The distribution column of the workspaces table is its id.
  const key = config.name === tenantRoot ? 'id' : DISTRIBUTION;
  const primaryKey = config.primaryKeys[0]?.columns.map((c) => c.name) ?? config.columns.filter((c) => c.primary).map((c) => c.name);

  const uniques: { name: string; columns: string[] }[] = [
    ...config.indexes.filter((i) => i.config.unique).map((i) => ({ name: i.config.name ?? '(unnamed)', columns: i.config.columns.map((c) => columnName(c as IndexColumn | SQL)) })),
    ...config.uniqueConstraints.map((u) => ({ name: u.getName() ?? '(unnamed)', columns: u.columns.map((c) => c.name) })),
    ...config.columns.filter((c) => c.isUnique).map((c) => ({ name: c.uniqueName ?? `${config.name}_${c.name}_unique`, columns: [c.name] })),
  ];
  const uniqueWithout = uniques.filter((u) => !u.columns.includes(key)).map((u) => `\`${u.name}\` (${list(u.columns)})`);

  const foreignKeysWithout = config.foreignKeys
    .map((fk) => {
      const ref = fk.reference();
      const target = getTableConfig(ref.foreignTable).name;
      const from = ref.columns.map((c) => c.name);
      const to = ref.foreignColumns.map((c) => c.name);
      const carriesKey = from.includes(key) || (target === tenantRoot && to.includes('id'));
      if (carriesKey) return null;
      const note = referenceTables.has(target) ? ' (to a reference table: allowed)' : '';
      return `${list(from)} → ${target} (${list(to)})${note}`;
    })
    .filter((fk): fk is string => fk !== null);

  return { name: config.name, placement, hasWorkspaceId, primaryKey, uniqueWithout, foreignKeysWithout };
}

export function citusReadinessReports(): TableReport[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map(reportOf)
    .sort((a, b) => a.name.localeCompare(b.name));
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');
const cell = (items: string[]) => (items.length === 0 ? '' : items.join('; '));

/** The Markdown of docs/citus-readiness.md. */
export function citusReadinessMarkdown(): string {
  const reports = citusReadinessReports();
  const needs = (r: TableReport) =>
    r.placement === 'distributed' &&
    (!r.primaryKey.includes(r.name === tenantRoot ? 'id' : DISTRIBUTION) || r.uniqueWithout.length > 0 || r.foreignKeysWithout.some((f) => !f.endsWith('allowed)')));
  const rows = reports.map((r) => {
    const pk = r.primaryKey.length === 0 ? 'none' : `${yesNo(r.primaryKey.includes(r.name === tenantRoot ? 'id' : DISTRIBUTION))} (${list(r.primaryKey)})`;
    return `| \`${r.name}\` | ${r.placement} | ${yesNo(r.hasWorkspaceId)} | ${pk} | ${cell(r.uniqueWithout)} | ${cell(r.foreignKeysWithout)} |`;
  });
  const count = (p: Placement) => reports.filter((r) => r.placement === p).length;
  return [
    '# Citus readiness',
    '',
    'Generated from the Drizzle schema (`src/server/db/schema`) by `npm run report:citus`; do not edit by hand (a test',
    'fails when this file and the schema disagree). What the columns mean, and the plan they serve:',
    '[operations, Past one database](operations.md#past-one-database).',
    '',
    `${reports.length} tables: ${count('distributed')} distributed by \`workspace_id\` (the workspaces table by its \`id\`), ` +
      `${count('reference')} reference, ${count('local')} local to the coordinator. ` +
      `${reports.filter(needs).length} distributed tables need a key, index or foreign key changed before Citus accepts them.`,
    '',
    '"Primary key includes workspace_id": for `workspaces`, its `id`. Foreign keys to `workspaces (id)` carry the',
    'distribution column on both sides and are not listed.',
    '',
    '| table | Citus | has workspace_id | primary key includes workspace_id | unique indexes without workspace_id | foreign keys not including workspace_id |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
