import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useRenameCampaign } from '../api/patch-campaign';

/** The campaign's name, renamed in place (Enter or leaving the field saves, Escape cancels); any status. */
export function CampaignName({ campaignId, workspaceId, name, canEdit }: { campaignId: string; workspaceId: string; name: string; canEdit: boolean }) {
  const rename = useRenameCampaign(campaignId, workspaceId);
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <span className="flex min-w-0 items-center gap-1">
        <span className="truncate">{rename.isPending ? (rename.variables ?? name) : name}</span>
        {canEdit && (
          <Button variant="ghost" size="icon-sm" aria-label="Rename campaign" onClick={() => setDraft(name)}>
            <Pencil />
          </Button>
        )}
      </span>
    );
  }
  const commit = () => {
    const next = draft.trim();
    setDraft(null);
    if (!next || next === name) return;
    rename.mutate(next);
  };
  return (
    <Input
      autoFocus
      aria-label="Campaign name"
      className="h-8 w-72 text-base font-semibold"
      value={draft}
      maxLength={200}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setDraft(null);
      }}
    />
  );
}
