/** A campaign's log lines (one per recipient and send step): paged and filtered by outcome, or as a CSV file. */
import type { CampaignOutcome } from '../../shared/schemas/campaign-canvas';
import type { CampaignLogEntry } from '../../shared/schemas/entities';
import * as logs from '../repositories/campaign-logs';
import { decodeCursor, encodeCursor, iso, isoOrNull } from '../repositories/pagination';
import type { WorkspaceContext } from '../services/caller';
import type { ServiceDeps } from '../services/context';
import { type CsvFile, csvRow, csvRows } from '../services/csv';
import { campaignOf } from './campaign-lookup';
import { contactsByIds } from '../repositories/campaign-contacts';

const toLogEntry = (l: logs.LogRow): CampaignLogEntry => ({
  id: l.id,
  createdAt: iso(l.createdAt),
  phoneNumber: l.phoneNumber,
  templateName: l.templateName,
  messageStatus: l.messageStatus,
  reason: l.reason,
  campaignId: l.campaignId,
  contactId: l.contactId,
  stepId: l.stepId,
  wamid: l.waMessageId,
  deliveryState: l.deliveryState,
  errorCode: l.errorCode,
  updatedAt: iso(l.updatedAt),
  repliedAt: isoOrNull(l.repliedAt),
});

const csvColumns = ['createdAt', 'phoneNumber', 'templateName', 'messageStatus', 'deliveryState', 'reason', 'errorCode', 'wamid', 'repliedAt'] as const;
/** After the phone number, the contact's WhatsApp user id and username: a recipient WhatsApp withholds the phone of is named by them. */
const csvHeader = ['createdAt', 'phoneNumber', 'userId', 'username', ...csvColumns.slice(2)];

export function campaignLogsService(d: Pick<ServiceDeps, 'db'>) {
  const ex = () => d.db.db;
  return {
    async logs(ctx: WorkspaceContext, id: string, q: { limit?: number; cursor?: string; status?: CampaignOutcome }) {
      await campaignOf(ex(), ctx.workspaceId, id);
      const limit = q.limit ?? 50;
      const rows = await logs.logsPage(ex(), ctx.workspaceId, id, { limit: limit + 1, after: q.cursor ? decodeCursor(q.cursor) : undefined, outcome: q.status });
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items: items.map(toLogEntry), nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
    },

    /** The log lines as CSV, read a page at a time while the file is sent. */
    async exportCsv(ctx: WorkspaceContext, id: string, status: CampaignOutcome | undefined): Promise<CsvFile> {
      const row = await campaignOf(ex(), ctx.workspaceId, id);
      const workspaceId = ctx.workspaceId;
      async function* lines() {
        yield csvRow(csvHeader);
        let after: { at: Date; id: string } | undefined;
        for (;;) {
          const page = await logs.logsPage(ex(), workspaceId, id, { limit: 1000, after, outcome: status });
          if (page.length === 0) return;
          // One look-up per page for the contacts' user ids and usernames (never one per line).
          const contacts = await contactsByIds(ex(), workspaceId, [...new Set(page.flatMap((l) => (l.contactId ? [l.contactId] : [])))]);
          yield csvRows(
            page.map((l) => {
              const cells = csvColumns.map((c) => (toLogEntry(l) as Record<string, unknown>)[c]);
              const contact = l.contactId ? contacts.get(l.contactId) : undefined;
              return [...cells.slice(0, 2), contact?.userId ?? null, contact?.username ?? null, ...cells.slice(2)];
            }),
          );
          const last = page[page.length - 1];
          after = { at: last.createdAt, id: last.id };
        }
      }
      return { fileName: `${row.name.replace(/[^A-Za-z0-9_-]+/g, '_') || 'campaign'}-logs.csv`, lines: lines() };
    },
  };
}
