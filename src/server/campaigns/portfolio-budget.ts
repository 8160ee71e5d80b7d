/**
 * The business portfolio's messaging limit in a batch: Meta lets a portfolio's numbers reach so many unique
 * customers with templates in a moving 24 hours (TIER_250 ... TIER_100K; TIER_UNLIMITED has none). A workspace's
 * numbers are one portfolio (its customers are known by the portfolio's user ids), so the room is shared by all
 * its campaigns and numbers. The batch counts once (one index scan, only when it is about to send) and hands
 * the room out recipient by recipient: a customer already reached in the 24 hours takes none; the others wait,
 * pending, until the oldest send of the window leaves it, with the reason on their campaign.
 *
 * Two claim loops of a process sending for one limited workspace take turns from the count to the batch's
 * write (a per-process lock), so the second counts the first's sends; unlimited workspaces never wait. Another
 * process counts those sends once they are claimed: two processes admitting at the same moment can overshoot
 * by what one batch admitted.
 */
import type { Executor } from '../db/client';
import { portfolioLimitOf, portfolioReach } from '../repositories/portfolio-reach';

const dayMs = 24 * 3600_000;
/** A hold never comes back sooner than this (the oldest send may be a customer reached again since). */
const minHoldMs = 60_000;

/** Unique customers in 24 hours Meta's tier allows; null when unlimited or unknown. */
export function portfolioLimitCount(tier: string | null): number | null {
  const m = /^TIER_(\d+)(K?)$/i.exec(tier ?? '');
  return m ? Number(m[1]) * (m[2] ? 1000 : 1) : null;
}

export const portfolioHoldReason = (limit: number) =>
  `Waiting for room in the business portfolio's messaging limit (${limit.toLocaleString('en-US')} customers in 24 hours, shared by its numbers): the other recipients go as the moving 24 hours make room`;

/** Why a recipient waits and until when. */
export interface PortfolioHold {
  reason: string;
  until: Date;
}

/** The room of one workspace's batch: admit() answers null (send) or the hold; release() once it is written. */
export interface PortfolioBudget {
  admit(contactId: string): Promise<PortfolioHold | null>;
  release(): void;
}

/** Per process: a workspace's batches take turns between counting and writing. */
export type PortfolioTurns = (workspaceId: string) => Promise<() => void>;

export function portfolioTurns(): PortfolioTurns {
  const tails = new Map<string, Promise<void>>();
  return async (workspaceId) => {
    const before = tails.get(workspaceId) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => mine);
    tails.set(workspaceId, tail);
    await before;
    return () => {
      done();
      if (tails.get(workspaceId) === tail) tails.delete(workspaceId);
    };
  };
}

export function portfolioBudget(ex: Executor, workspaceId: string, contactIds: string[], now: Date, turns: PortfolioTurns): PortfolioBudget {
  type Room = { left: number; counted: Set<string>; hold: PortfolioHold } | null;
  let room: Promise<Room> | undefined;
  let release = () => {};
  const load = async (): Promise<Room> => {
    const limit = portfolioLimitCount(await portfolioLimitOf(ex, workspaceId));
    if (limit === null) return null;
    release = await turns(workspaceId);
    const reach = await portfolioReach(ex, workspaceId, new Date(now.getTime() - dayMs), contactIds);
    const until = new Date(Math.max((reach.oldest?.getTime() ?? now.getTime()) + dayMs, now.getTime() + minHoldMs));
    return { left: limit - reach.reached, counted: reach.counted, hold: { reason: portfolioHoldReason(limit), until } };
  };
  return {
    async admit(contactId) {
      const r = await (room ??= load());
      if (!r || r.counted.has(contactId)) return null;
      if (r.left <= 0) return r.hold;
      r.left--;
      r.counted.add(contactId);
      return null;
    },
    release: () => release(),
  };
}
