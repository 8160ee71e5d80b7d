import type { TemplateCategoryChange, TemplateQuality } from '@shared/schemas/entities';
import { Badge, type BadgeTone } from '../../../components/ui/badge';

const tones: Record<string, BadgeTone> = {
  APPROVED: 'green',
  PENDING: 'amber',
  IN_APPEAL: 'amber',
  REJECTED: 'red',
  DISABLED: 'red',
  PAUSED: 'blue',
};

/** Template review state as WhatsApp reports it (a free string: unknown ones show neutral). */
export function TemplateStatusBadge({ status }: { status: string }) {
  const label = status.charAt(0) + status.slice(1).toLowerCase().replace(/_/g, ' ');
  return <Badge tone={tones[status.toUpperCase()] ?? 'neutral'}>{label}</Badge>;
}

const qualityTones: Record<string, BadgeTone> = { GREEN: 'green', YELLOW: 'amber', RED: 'red' };
const lower = (s: string) => s.toLowerCase().replace(/_/g, ' ');
const dayOf = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : 'soon');

/** Meta's quality score of the template (message_template_quality_update), once Meta sent one. */
export function TemplateQualityBadge({ quality }: { quality: TemplateQuality | null | undefined }) {
  if (!quality) return null;
  const was = quality.previousScore ? ` (was ${lower(quality.previousScore)})` : '';
  return (
    <Badge tone={qualityTones[quality.score] ?? 'neutral'} title={`Quality ${lower(quality.score)}${was}, ${new Date(quality.at).toLocaleString()}`}>
      Quality {lower(quality.score)}
    </Badge>
  );
}

/** Meta's category change: coming (impending) or done (completed), with the category it came from. */
export function TemplateCategoryChangeNote({ change }: { change: TemplateCategoryChange | null | undefined }) {
  if (!change) return null;
  const from = change.previousCategory ? lower(change.previousCategory) : 'another category';
  return (
    <p className="text-xs text-warning-text" role="note">
      {change.state === 'impending'
        ? `Becomes ${lower(change.newCategory)} on ${dayOf(change.effectiveAt)} (Meta)`
        : `Moved from ${from} by Meta on ${dayOf(change.effectiveAt)}`}
    </p>
  );
}
