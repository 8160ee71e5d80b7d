/**
 * Contacts export: the contacts of the current filter or segment as CSV, streamed a page at a
 * time from the database to the response (never the whole audience in memory). Columns: the contact's own
 * fields (with the WhatsApp user id and username; a contact WhatsApp withholds the phone of has an empty
 * phoneNumber), then one per contact attribute of the workspace, so the file imports back as it is. Cells go
 * through the one CSV writer (services/csv.ts), which keeps formulas as text.
 */
import type { Contact } from '../../shared';
import * as attributeRepo from '../repositories/attributes';
import { contactsPage } from '../repositories/contact-list';
import type { WorkspaceContext } from './caller';
import { type CsvFile, csvRow } from './csv';
import { type ContactFilter, contactConditions } from '../repositories/contact-filter';
import type { ServiceDeps } from './context';

const PAGE = 1000;
const ownColumns = ['name', 'phoneNumber', 'userId', 'username', 'email', 'country', 'city', 'tags', 'optedOut', 'createdAt'] as const;

function ownValue(c: Contact, column: (typeof ownColumns)[number]): unknown {
  if (column === 'tags') return c.tags.join(';');
  return c[column] ?? null;
}

export function contactExport(d: ServiceDeps) {
  const ex = () => d.db.db;
  return {
    async exportCsv(ctx: WorkspaceContext, filter: ContactFilter): Promise<CsvFile> {
      const workspaceId = ctx.workspaceId;
      // Conditions first: an unknown segment answers 404 before any byte of the file is sent.
      const { segmentCond, searchCond } = await contactConditions(ex(), workspaceId, filter);
      const attributes = (await attributeRepo.attributesOf(ex(), workspaceId)).filter((a) => a.type === 'contact').map((a) => a.name);
      async function* lines() {
        yield csvRow([...ownColumns, ...attributes]);
        let cursor: string | undefined;
        do {
          const page = await contactsPage(ex(), workspaceId, { search: filter.search, cursor, limit: PAGE }, segmentCond, searchCond);
          if (page.items.length > 0) {
            yield page.items.map((c) => csvRow([...ownColumns.map((k) => ownValue(c, k)), ...attributes.map((a) => c.attributes[a])])).join('');
          }
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      const day = new Date().toISOString().slice(0, 10);
      return { fileName: `contacts-${day}.csv`, lines: lines() };
    },
  };
}
