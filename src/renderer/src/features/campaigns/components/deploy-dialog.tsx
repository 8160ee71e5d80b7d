import { AlertCircle } from 'lucide-react';
import { type RefObject, useState } from 'react';
import { toast } from 'sonner';
import type { Campaign } from '@shared/schemas/entities';
import type { CanvasController } from '../../../components/canvas';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useDeployCampaign } from '../api/deploy-campaign';
import { EstimatePanel } from './estimate-panel';

/** The problems a refused deploy lists (400: `message` is the list), or the one error of another failure. */
function problemsOf(err: unknown): string[] {
  if (err instanceof ApiError && err.status === 400) {
    const m = (err.body as { message?: unknown } | null)?.message;
    if (Array.isArray(m)) return m.map(String);
  }
  return [errorText(err)];
}

/** A local date-time input value ("2026-11-25T18:30") as an ISO timestamp. */
function toIso(local: string) {
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * Deploy: saves the canvas first, then starts the campaign now or (one-time) at a later time. A refused deploy
 * lists every problem the server found.
 */
export function DeployDialog({
  campaign,
  controllerRef,
  onClose,
  onTriggerKey,
}: {
  campaign: Campaign;
  controllerRef: RefObject<CanvasController | null>;
  onClose: () => void;
  onTriggerKey: (key: string) => void;
}) {
  const deploy = useDeployCampaign(campaign.id, campaign.workspaceId);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [startAt, setStartAt] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setProblems([]);
    const at = when === 'later' ? toIso(startAt) : null;
    if (when === 'later' && (!at || new Date(at) <= new Date())) {
      setProblems(['Choose a start time in the future']);
      return;
    }
    setBusy(true);
    try {
      await controllerRef.current?.flush();
    } catch (err) {
      setBusy(false);
      setProblems([`The canvas could not be saved: ${(err as Error).message}`]);
      return;
    }
    try {
      const result = await deploy.mutateAsync(at ? { startAt: at } : {});
      if (result.triggerKey) onTriggerKey(result.triggerKey);
      toast.success(at ? `${campaign.name} is scheduled for ${formatDateTime(at)}` : `${campaign.name} is deployed`);
      onClose();
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={`Deploy ${campaign.name}`}
        description={
          campaign.type === 'oneTime'
            ? 'Sends to every contact of the segment, at the number’s rate. After deploy the steps are locked.'
            : 'Starts listening for calls to the trigger URL. After deploy the steps are locked.'
        }
        footer={
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button loading={busy} onClick={() => void submit()}>
              {when === 'later' ? 'Schedule' : 'Deploy now'}
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-3">
          <EstimatePanel campaignId={campaign.id} />
          {campaign.type === 'oneTime' && (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-[13px] font-medium">When</legend>
              <label className="flex items-center gap-2 text-[13px]">
                <input type="radio" name="when" checked={when === 'now'} onChange={() => setWhen('now')} /> Now
              </label>
              <label className="flex items-center gap-2 text-[13px]">
                <input type="radio" name="when" checked={when === 'later'} onChange={() => setWhen('later')} /> Later
              </label>
              {when === 'later' && (
                <Input type="datetime-local" aria-label="Start at" value={startAt} onChange={(e) => setStartAt(e.target.value)} />
              )}
            </fieldset>
          )}
          {problems.length > 0 && (
            <div role="alert" className="rounded-md bg-danger-soft p-3 text-[13px] text-danger">
              <p className="mb-1 flex items-center gap-1.5 font-medium">
                <AlertCircle className="h-4 w-4" aria-hidden />
                {problems.length === 1 ? 'The campaign cannot deploy yet:' : `The campaign cannot deploy yet (${problems.length} problems):`}
              </p>
              <ul className="list-disc pl-5">
                {problems.map((p, i) => (
                  <li key={i}>{p}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
