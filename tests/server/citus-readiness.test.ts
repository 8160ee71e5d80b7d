// docs/citus-readiness.md is generated from the Drizzle schema: a schema change that is not carried into the report
// fails here, with the command that regenerates it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusReadinessMarkdown, citusReadinessReports } from '../../scripts/lib/citus-readiness';
import { tenantTables } from '../../src/server/db/schema';

const reportFile = path.resolve(import.meta.dirname, '../../docs/citus-readiness.md');

describe('the Citus readiness report', () => {
  it('is what the schema generates today', () => {
    const committed = fs.readFileSync(reportFile, 'utf8');
    const generated = citusReadinessMarkdown();
    if (committed !== generated) {
      expect.fail('docs/citus-readiness.md is out of date with src/server/db/schema: run `npm run report:citus` and commit the file');
    }
  });

  it('distributes every tenant table, and names what Citus would refuse of them', () => {
    const reports = new Map(citusReadinessReports().map((r) => [r.name, r]));
    for (const name of tenantTables) expect(reports.get(name), name).toMatchObject({ placement: 'distributed', hasWorkspaceId: true });
    expect(reports.get('members')?.placement).toBe('reference');
    // The lookups that cross workspaces today are unique indexes without workspace_id.
    expect(reports.get('whatsapp_accounts')?.uniqueWithout).toEqual(['`whatsapp_accounts_phone_number_id_uq` (phone_number_id)']);
    expect(reports.get('campaigns')?.uniqueWithout).toEqual(['`campaigns_trigger_key_uq` (trigger_key_hash)']);
    expect(reports.get('messages')?.foreignKeysWithout).toEqual(['conversation_id → conversations (id)']);
  });
});
