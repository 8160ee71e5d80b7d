/** A workspace's rate card: Meta's per-message prices by market, uploaded by an admin as CSV (rate-card-csv.ts). */
import type { RateCard } from '../../shared/schemas/entities';
import { iso } from '../repositories/pagination';
import { type RateCardRow, rateCardOf, saveRateCard } from '../repositories/rate-cards';
import type { WorkspaceContext } from './caller';
import type { ServiceDeps } from './context';
import { parseRateCard } from './rate-card-csv';

const toRateCard = (r: RateCardRow): RateCard => ({
  fileName: r.fileName,
  uploadedAt: iso(r.uploadedAt),
  memberId: r.memberId,
  rates: r.rates,
  ignoredMarkets: r.ignoredMarkets,
});

export function rateCardService(d: Pick<ServiceDeps, 'db'>) {
  return {
    async get(ctx: WorkspaceContext): Promise<{ rateCard: RateCard | null }> {
      const row = await rateCardOf(d.db.db, ctx.workspaceId);
      return { rateCard: row && toRateCard(row) };
    },

    /** Replaces the workspace's rate card; a file with a bad line changes nothing. */
    async upload(ctx: WorkspaceContext, body: { fileName: string; content: string }): Promise<RateCard> {
      const { rates, ignoredMarkets } = parseRateCard(body.content);
      const row = await saveRateCard(d.db.db, { workspaceId: ctx.workspaceId, fileName: body.fileName, rates, ignoredMarkets, memberId: ctx.caller.member.id });
      return toRateCard(row);
    },
  };
}
