/**
 * A number's health as Meta reports it (reference §7): quality rating, messaging-limit tier and throughput level,
 * read with `GET /{PHONE_NUMBER_ID}?fields=quality_rating,messaging_limit_tier,throughput`, and changed at run time
 * with a signed `phone_number_quality_update` webhook, as Meta sends when a number is flagged, its limit moves
 * or its throughput is upgraded.
 */
import { type SandboxAccount, digits } from './account';
import type { SandboxState } from './state';

export interface NumberHealthState {
  qualityRating: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
  messagingLimitTier: string;
  throughputLevel: 'STANDARD' | 'HIGH' | 'NOT_APPLICABLE';
}

/** A change of health and the webhook event Meta sends for it. */
export interface NumberHealthChange extends Partial<NumberHealthState> {
  /** FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE, THROUGHPUT_UPGRADE, ONBOARDING (default: derived from the change). */
  event?: string;
}

const healthy = (): NumberHealthState => ({ qualityRating: 'GREEN', messagingLimitTier: 'TIER_1K', throughputLevel: 'STANDARD' });

export class NumberHealthBook {
  private readonly byNumber = new Map<string, NumberHealthState>();

  constructor(private readonly state: SandboxState) {}

  of(phoneNumberId: string): NumberHealthState {
    return this.byNumber.get(phoneNumberId) ?? healthy();
  }

  /** Applies the change and sends Meta's webhook for it; resolves once the webhook was delivered or given up. */
  async change(account: SandboxAccount, change: NumberHealthChange): Promise<NumberHealthState> {
    const before = this.of(account.phoneNumberId);
    const { event: given, ...values } = change;
    const after = { ...before, ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) } as NumberHealthState;
    this.byNumber.set(account.phoneNumberId, after);
    const event =
      given ??
      (after.throughputLevel === 'HIGH' && before.throughputLevel !== 'HIGH'
        ? 'THROUGHPUT_UPGRADE'
        : after.qualityRating === 'RED' && before.qualityRating !== 'RED'
          ? 'FLAGGED'
          : before.qualityRating === 'RED' && after.qualityRating !== 'RED'
            ? 'UNFLAGGED'
            : after.messagingLimitTier !== before.messagingLimitTier
              ? tierRank(after.messagingLimitTier) > tierRank(before.messagingLimitTier) ? 'UPGRADE' : 'DOWNGRADE'
              : 'ONBOARDING');
    this.state.log(`number ${account.phoneNumber}: ${event} (${after.qualityRating}, ${after.messagingLimitTier}, ${after.throughputLevel})`);
    await this.state.webhooks.push(account.wabaAccountId, 'phone_number_quality_update', {
      display_phone_number: digits(account.phoneNumber),
      event,
      current_limit: after.messagingLimitTier,
      ...(after.messagingLimitTier !== before.messagingLimitTier && { old_limit: before.messagingLimitTier }),
    });
    return after;
  }

  /**
   * Since October 2025 the messaging limit belongs to the business portfolio, shared by its numbers: each number
   * of the WABA answers the new `whatsapp_business_manager_messaging_limit` and gets its quality update webhook,
   * and a raise also sends `business_capability_update` (`max_daily_conversations_per_business`).
   */
  async portfolioLimit(wabaId: string, tier: string, accounts: SandboxAccount[]): Promise<{ tier: string; numbers: string[] }> {
    const numbers = accounts.filter((a) => a.wabaAccountId === wabaId);
    const before = numbers[0] ? this.of(numbers[0].phoneNumberId).messagingLimitTier : tier;
    for (const a of numbers) await this.change(a, { messagingLimitTier: tier });
    if (tierRank(tier) > tierRank(before)) {
      await this.state.webhooks.push(wabaId, 'business_capability_update', { max_daily_conversations_per_business: limitOf[tier] ?? -1 });
    }
    return { tier, numbers: numbers.map((a) => a.phoneNumberId) };
  }
}

/** The portfolio's limits (unique customers reached outside a service window per moving 24 hours). */
export const portfolioTiers = ['TIER_250', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'];
const limitOf: Record<string, number> = { TIER_250: 250, TIER_2K: 2000, TIER_10K: 10000, TIER_100K: 100000 };

const tiers = ['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'];
const tierRank = (tier: string) => tiers.indexOf(tier);
