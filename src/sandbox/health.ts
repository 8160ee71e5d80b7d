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
}

const tiers = ['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'];
const tierRank = (tier: string) => tiers.indexOf(tier);
