import type { CampaignOutcome } from '@shared/schemas/campaign-canvas';
import type { CampaignCounts } from '@shared/schemas/entities';

/** The counts a marketer reads, in order, each with the outcome its logs filter and retarget by. */
export const countTiles: { key: keyof CampaignCounts; label: string; outcome: CampaignOutcome | null; hint: string }[] = [
  { key: 'recipients', label: 'Recipients', outcome: null, hint: 'Contacts the campaign targeted' },
  { key: 'sent', label: 'Sent', outcome: 'sent', hint: 'Accepted by WhatsApp' },
  { key: 'delivered', label: 'Delivered', outcome: 'delivered', hint: 'Reached the phone' },
  { key: 'read', label: 'Read', outcome: 'read', hint: 'Opened by the customer' },
  { key: 'replied', label: 'Replied', outcome: 'replied', hint: 'Wrote back within 72 hours' },
  { key: 'failed', label: 'Failed', outcome: 'failed', hint: 'Refused by WhatsApp' },
  { key: 'unknown', label: 'Unknown', outcome: 'unknown', hint: 'May or may not have reached WhatsApp; never resent' },
  { key: 'optedOut', label: 'Opted out', outcome: 'optedOut', hint: 'Skipped: the contact opted out' },
];

export const outcomeFilters: { value: CampaignOutcome | ''; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'sent', label: 'Sent' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'read', label: 'Read' },
  { value: 'replied', label: 'Replied' },
  { value: 'readNotReplied', label: 'Read, not replied' },
  { value: 'failed', label: 'Failed' },
  { value: 'unknown', label: 'Unknown' },
  { value: 'optedOut', label: 'Opted out' },
];

export const outcomeLabel = (o: CampaignOutcome) => outcomeFilters.find((f) => f.value === o)?.label ?? o;
