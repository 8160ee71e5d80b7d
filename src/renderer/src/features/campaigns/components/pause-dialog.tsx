import { useState } from 'react';
import { toast } from 'sonner';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { usePauseCampaign } from '../api/pause-campaign';

/** Pause until resumed, or until a time (the campaign's resumeAt). */
export function PauseDialog({ campaignId, workspaceId, name, onClose }: { campaignId: string; workspaceId: string; name: string; onClose: () => void }) {
  const pause = usePauseCampaign(campaignId, workspaceId);
  const [until, setUntil] = useState('');
  const submit = () => {
    const at = until ? new Date(until) : null;
    if (at && (Number.isNaN(at.getTime()) || at <= new Date())) {
      toast.error('Choose a time in the future, or leave it empty');
      return;
    }
    pause.mutate(at ? { resumeAt: at.toISOString() } : {}, {
      onSuccess: () => {
        toast.success(`${name} is paused`);
        onClose();
      },
    });
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={`Pause ${name}?`}
        description="No message is sent while it is paused; sends already due wait and go out when it resumes."
        footer={
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button loading={pause.isPending} onClick={submit}>
              Pause
            </Button>
          </>
        }
      >
        <label className="flex flex-col gap-1.5 text-[13px] font-medium">
          Resume automatically at <span className="font-normal text-fg-subtle">(optional)</span>
          <Input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
        </label>
      </DialogContent>
    </Dialog>
  );
}
