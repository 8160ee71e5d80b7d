import { useState } from 'react';
import type { CampaignOutcome } from '@shared/schemas/campaign-canvas';
import type { Campaign } from '@shared/schemas/entities';
import { Dialog, DialogContent } from '../../../../components/ui/dialog';
import { Button } from '../../../../components/ui/button';
import { Input, NativeSelect } from '../../../../components/ui/input';
import { useRetargetCampaign } from '../../api/retarget-campaign';
import { outcomeFilters, outcomeLabel } from './outcomes';

/**
 * Retarget: a new one-time draft for exactly the recipients with an outcome (e.g. failed with 131049, or read
 * and not replied); its audience is taken when it deploys.
 */
export function RetargetDialog({
  campaign,
  outcome: initial,
  onClose,
  onCreated,
}: {
  campaign: Campaign;
  outcome: CampaignOutcome;
  onClose: () => void;
  onCreated: (c: Campaign) => void;
}) {
  const retarget = useRetargetCampaign(campaign.id, campaign.workspaceId);
  const [outcome, setOutcome] = useState<CampaignOutcome>(initial);
  const [errorCode, setErrorCode] = useState('');
  const defaultName = (o: CampaignOutcome) => `${campaign.name}: ${outcomeLabel(o).toLowerCase()}`;
  const [name, setName] = useState(defaultName(initial));
  // The suggested name follows the chosen outcome until the user writes one of their own.
  const [ownName, setOwnName] = useState(false);
  const submit = () => {
    const code = errorCode.trim() ? Number(errorCode) : undefined;
    retarget.mutate(
      { outcome, errorCode: outcome === 'failed' && Number.isInteger(code) ? code : undefined, name: name.trim() || undefined },
      { onSuccess: onCreated },
    );
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title="Retarget recipients"
        description="Creates a one-time draft campaign for exactly these recipients of this campaign."
        footer={
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button loading={retarget.isPending} onClick={submit}>
              Create campaign
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-3 text-[13px]">
          <label className="flex flex-col gap-1.5 font-medium">
            Recipients whose message is
            <NativeSelect
              value={outcome}
              onChange={(e) => {
                const next = e.target.value as CampaignOutcome;
                setOutcome(next);
                if (!ownName) setName(defaultName(next));
              }}
            >
              {outcomeFilters
                .filter((f) => f.value)
                .map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
            </NativeSelect>
          </label>
          {outcome === 'failed' && (
            <label className="flex flex-col gap-1.5 font-medium">
              Only with WhatsApp error code <span className="font-normal text-fg-subtle">(optional, e.g. 131049)</span>
              <Input inputMode="numeric" value={errorCode} onChange={(e) => setErrorCode(e.target.value.replace(/\D/g, ''))} />
            </label>
          )}
          <label className="flex flex-col gap-1.5 font-medium">
            Name of the new campaign
            <Input value={name} maxLength={200} onChange={(e) => {
                setName(e.target.value);
                setOwnName(true);
              }}
            />
          </label>
        </div>
      </DialogContent>
    </Dialog>
  );
}
