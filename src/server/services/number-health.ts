/**
 * A WhatsApp number's health: quality rating, messaging-limit tier and throughput level, read
 * from the Graph API (`GET /{PHONE_NUMBER_ID}?fields=quality_rating,messaging_limit_tier,throughput`) when the number
 * is connected and on demand, and refreshed by Meta's `phone_number_quality_update` webhook. Stored on the account.
 */
import type { WhatsappAccount } from '../../shared';
import { notFound } from '../errors';
import * as ch from '../repositories/channel';
import * as r from '../repositories/resources';
import type { WorkspaceContext } from './caller';
import type { Channel } from '../whatsapp/channel';
import type { GraphClient } from '../whatsapp/graph-client';
import type { PhoneNumberInfo } from '../whatsapp/graph-types';
import { viaGraph } from '../whatsapp/graph-failure';
import type { QualityUpdateValue } from '../whatsapp/webhook-payload';
import type { ServiceDeps } from './context';

/** The columns a Graph read fills; a field Meta left out keeps what was stored. */
export function healthOfPhoneNumber(info: PhoneNumberInfo) {
  return {
    ...(info.quality_rating !== undefined && { qualityRating: info.quality_rating }),
    ...(info.messaging_limit_tier !== undefined && { messagingLimitTier: info.messaging_limit_tier }),
    // The portfolio's limit: the new field, the deprecated per-number one when Meta does not send it yet.
    ...((info.whatsapp_business_manager_messaging_limit ?? info.messaging_limit_tier) !== undefined && {
      portfolioMessagingLimit: info.whatsapp_business_manager_messaging_limit ?? info.messaging_limit_tier,
    }),
    ...(info.throughput?.level !== undefined && { throughputLevel: info.throughput.level }),
    healthUpdatedAt: new Date(),
  };
}

export function numberHealth(d: ServiceDeps, channel: Channel, graph: GraphClient) {
  const ex = () => d.db.db;

  async function read(account: ch.AccountRow): Promise<ch.AccountRow> {
    const info = await graph.getPhoneNumber(channel.credsOf(account));
    return (await r.whatsappAccounts.update(ex(), account.workspaceId, account.id, healthOfPhoneNumber(info))) ?? account;
  }

  return {
    /** Stores what a connection check already read (no second call to Meta). */
    async store(account: ch.AccountRow, info: PhoneNumberInfo): Promise<ch.AccountRow> {
      return (await r.whatsappAccounts.update(ex(), account.workspaceId, account.id, healthOfPhoneNumber(info))) ?? account;
    },

    /** On demand (POST /whatsapp/{id}/health): Meta's current figures, stored and answered. */
    async refresh(ctx: WorkspaceContext, id: string): Promise<WhatsappAccount> {
      const account = await ch.account(ex(), ctx.workspaceId, id);
      if (!account) throw notFound('WhatsApp account not found');
      return r.toWhatsappAccount(await viaGraph(d.log, 'read number health', () => read(account)));
    },

    /**
     * The webhook: its event and new limit are stored at once, then the rest (quality rating, throughput level) is
     * read from Meta. A failed read is logged and leaves the webhook's figures in place.
     */
    async afterQualityUpdate(account: ch.AccountRow, v: QualityUpdateValue): Promise<void> {
      await r.whatsappAccounts.update(ex(), account.workspaceId, account.id, {
        qualityEvent: v.event,
        ...(v.current_limit && { messagingLimitTier: v.current_limit }),
        ...(v.event === 'THROUGHPUT_UPGRADE' && { throughputLevel: 'HIGH' }),
        healthUpdatedAt: new Date(),
      });
      try {
        await read(account);
      } catch (err) {
        d.log.warn({ account: account.id, err: (err as Error).message }, 'number health read after a quality webhook failed');
      }
    },
  };
}
export type NumberHealth = ReturnType<typeof numberHealth>;
