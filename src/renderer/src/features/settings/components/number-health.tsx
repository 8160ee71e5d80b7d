import { RefreshCw } from 'lucide-react';
import type { WhatsappAccount } from '@shared/schemas/entities';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/format';
import { useRefreshNumberHealth } from '../api/refresh-number-health';

const quality: Record<string, { label: string; tone: BadgeTone; hint: string }> = {
  GREEN: { label: 'High quality', tone: 'green', hint: 'Customers rarely block or report this number.' },
  YELLOW: { label: 'Medium quality', tone: 'amber', hint: 'Some customers blocked or reported this number in the last 7 days.' },
  RED: { label: 'Low quality', tone: 'red', hint: 'Many blocks or reports: Meta may lower the messaging limit. Send less, and only to customers who asked.' },
};

/** "TIER_10K" → "10K customers a day"; "TIER_UNLIMITED" → "Unlimited". */
export function limitLabel(tier: string | null): string {
  if (!tier) return 'Limit unknown';
  const t = tier.replace(/^TIER_/, '');
  return t === 'UNLIMITED' ? 'Unlimited customers a day' : `${t} customers a day`;
}

const throughput: Record<string, string> = { STANDARD: '80 msg/s', HIGH: '1,000 msg/s', NOT_APPLICABLE: 'Throughput n/a' };

const events: Record<string, string> = {
  FLAGGED: 'Flagged by Meta',
  UNFLAGGED: 'No longer flagged',
  UPGRADE: 'Limit raised',
  DOWNGRADE: 'Limit lowered',
  THROUGHPUT_UPGRADE: 'Throughput raised',
};

/** The number's health as Meta last told it, with a refresh for admins. */
export function NumberHealth({
  account,
  workspaceId,
  canRefresh,
  sandbox,
}: {
  account: WhatsappAccount;
  workspaceId: string;
  canRefresh: boolean;
  /** The server's Graph API is the local sandbox: this number and its health are the stand-in's, not Meta's. */
  sandbox: boolean;
}) {
  const refresh = useRefreshNumberHealth(workspaceId);
  const h = account.health;
  const q = h?.qualityRating ? quality[h.qualityRating] : undefined;
  const note = h?.lastEvent ? events[h.lastEvent] : undefined;
  return (
    <div role="group" className="flex items-start gap-1 py-1.5" aria-label={`Health of ${account.phoneNumber}`}>
      {h ? (
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap gap-1">
            {sandbox && (
              <Badge tone="blue" title="A number of the local WhatsApp sandbox: its messages never reach a real phone">
                Sandbox
              </Badge>
            )}
            <Badge tone={q?.tone ?? 'neutral'} title={q?.hint ?? 'Meta has not rated this number yet.'}>
              {q?.label ?? 'Quality unknown'}
            </Badge>
            {note && (
              <Badge tone={h.lastEvent === 'FLAGGED' || h.lastEvent === 'DOWNGRADE' ? 'red' : 'blue'} title={`Last update ${formatDate(h.updatedAt)}`}>
                {note}
              </Badge>
            )}
          </div>
          <p className="text-xs text-fg-muted">
            <span title="Messaging limit: customers Parley may start conversations with in 24 hours">{limitLabel(h.messagingLimitTier)}</span>
            {h.portfolioMessagingLimit && (
              <>
                {' · '}
                <span title="Business portfolio limit, shared by all its numbers">Portfolio: {limitLabel(h.portfolioMessagingLimit)}</span>
              </>
            )}
            {' · '}
            <span title="Throughput level at Meta" className="whitespace-nowrap">
              {throughput[h.throughputLevel ?? ''] ?? 'Throughput unknown'}
            </span>
          </p>
        </div>
      ) : (
        <span className="flex flex-wrap items-center gap-1 text-xs text-fg-muted">
          {sandbox && <Badge tone="blue">Sandbox</Badge>}
          Not read yet
        </span>
      )}
      {canRefresh && (
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`Refresh health of ${account.phoneNumber}`}
          title={h ? `Read from Meta ${formatDate(h.updatedAt)}; read again` : 'Read from Meta'}
          disabled={refresh.isPending}
          onClick={() => refresh.mutate(account.id)}
        >
          <RefreshCw className={refresh.isPending ? 'animate-spin' : undefined} />
        </Button>
      )}
    </div>
  );
}
