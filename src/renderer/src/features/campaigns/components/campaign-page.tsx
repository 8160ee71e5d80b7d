import { useParams } from '@tanstack/react-router';
import { CalendarX, Pause, Play, Rocket } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { Campaign } from '@shared/schemas/entities';
import { type CanvasController, type CanvasGraph, CanvasLeaveGuard, createCanvasStore } from '../../../components/canvas';
import { BackLinkTitle, DetailPage } from '../../../components/layout/detail-page';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { formatDateTime } from '../../../lib/format';
import { useIsAdmin } from '../../../lib/queries/session';
import { useCancelCampaignSchedule } from '../api/cancel-campaign-schedule';
import { useCampaign } from '../api/get-campaign';
import { useResumeCampaign } from '../api/resume-campaign';
import { CampaignCanvas } from '../canvas/campaign-canvas';
import { CampaignEditorContext } from '../canvas/editor-context';
import { onlyOnceInCampaign } from '../canvas/palette';
import type { CampaignFlowNode } from '../canvas/types';
import { useCampaignLive } from '../hooks/use-campaign-live';
import { CampaignName } from './campaign-name';
import { CampaignStatusBadge } from './campaign-status';
import { DeployDialog } from './deploy-dialog';
import { PauseDialog } from './pause-dialog';
import { CampaignResultsPanel } from './results/results-panel';

/** `/campaigns/{campaignId}` (loaded lazily): the campaign's canvas, its deploy controls and its results. */
export function CampaignPage() {
  const { campaignId } = useParams({ from: '/app/campaigns/$campaignId' });
  const campaign = useCampaign(campaignId);
  if (campaign.data) return <CampaignEditor key={campaign.data.id} campaign={campaign.data} />;
  return (
    <DetailPage query={campaign} noun="campaign" backTo="/campaigns" backLabel="Back to campaigns" title="Campaign" actions={<Badge>Loading</Badge>}>
      {() => null}
    </DetailPage>
  );
}

function CampaignEditor({ campaign }: { campaign: Campaign }) {
  const isAdmin = useIsAdmin();
  // One store for as long as this campaign is open: refetches of the campaign never reset the editing state.
  const store = useMemo(
    () => createCanvasStore<CampaignFlowNode>(campaign.rfInstance as unknown as CanvasGraph<CampaignFlowNode>, { onlyOnce: onlyOnceInCampaign }),
    [campaign.id],
  );
  const controllerRef = useRef<CanvasController>(null);
  const [freshTriggerKey, setFreshTriggerKey] = useState<string | null>(null);
  const editor = useMemo(() => ({ workspaceId: campaign.workspaceId, campaign, freshTriggerKey, setFreshTriggerKey }), [campaign, freshTriggerKey]);
  useCampaignLive(campaign.workspaceId, campaign.id);
  const deployed = campaign.status !== 'draft' && campaign.status !== 'scheduled';
  const [tab, setTab] = useState(deployed ? 'results' : 'steps');
  // Just deployed: a one-time campaign opens on its results; a recurring one stays on its steps, where the
  // trigger key is shown once.
  const [wasDeployed, setWasDeployed] = useState(deployed);
  if (deployed !== wasDeployed) {
    setWasDeployed(deployed);
    if (deployed && campaign.type === 'oneTime') setTab('results');
  }

  // Opened with Enter from the list, the focused link is gone with the list: the page's heading takes focus, not the body.
  useEffect(() => {
    const a = document.activeElement;
    if (a && a !== document.body && a.id !== 'main' && a.isConnected) return;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, []);

  const canvas = <CampaignCanvas campaign={campaign} store={store} controllerRef={controllerRef} />;
  return (
    <CampaignEditorContext.Provider value={editor}>
      <CanvasLeaveGuard controllerRef={controllerRef} />
      <PageHeader
        title={
          <BackLinkTitle to="/campaigns" label="Back to campaigns">
            <CampaignName campaignId={campaign.id} workspaceId={campaign.workspaceId} name={campaign.name} canEdit={isAdmin} />
          </BackLinkTitle>
        }
        description={<CampaignFacts campaign={campaign} />}
        actions={
          <>
            <CampaignStatusBadge status={campaign.status} />
            {isAdmin && <CampaignActions campaign={campaign} controllerRef={controllerRef} onTriggerKey={setFreshTriggerKey} />}
          </>
        }
      />
      <div className="flex min-h-[560px] flex-1 flex-col gap-3 p-4">
        {deployed ? (
          <Tabs value={tab} onValueChange={setTab} className="flex min-h-0 flex-1 flex-col gap-3">
            <TabsList className="self-start" aria-label="Campaign views">
              <TabsTrigger value="results">Results</TabsTrigger>
              <TabsTrigger value="steps">Steps</TabsTrigger>
            </TabsList>
            <TabsContent value="results" className="min-h-0 flex-1">
              <CampaignResultsPanel campaign={campaign} />
            </TabsContent>
            <TabsContent value="steps" className="flex min-h-0 flex-1 flex-col data-[state=inactive]:hidden">
              {canvas}
            </TabsContent>
          </Tabs>
        ) : (
          canvas
        )}
      </div>
    </CampaignEditorContext.Provider>
  );
}

function CampaignFacts({ campaign }: { campaign: Campaign }) {
  const parts = [campaign.type === 'oneTime' ? 'One-time campaign' : 'Recurring campaign'];
  if (campaign.status === 'scheduled' && campaign.scheduledAt) parts.push(`starts ${formatDateTime(campaign.scheduledAt)}`);
  if (campaign.status === 'paused' && campaign.resumeAt) parts.push(`resumes ${formatDateTime(campaign.resumeAt)}`);
  if (campaign.deployedAt && campaign.status !== 'scheduled') parts.push(`deployed ${formatDateTime(campaign.deployedAt)}`);
  // Halted by WhatsApp: its code and Meta's words; the recipients not sent yet wait for resume.
  if (campaign.status === 'paused' && campaign.halt) parts.push(`halted by WhatsApp (${campaign.halt.code}): ${campaign.halt.reason}`);
  // Held for the portfolio's messaging limit: a status, not a failure; the rest go as room opens.
  if ((campaign.status === 'inProgress' || campaign.status === 'active') && campaign.hold) parts.push(`${campaign.hold.reason} (next room ${formatDateTime(campaign.hold.until)})`);
  return <>{parts.join(' · ')}</>;
}

function CampaignActions({
  campaign,
  controllerRef,
  onTriggerKey,
}: {
  campaign: Campaign;
  controllerRef: React.RefObject<CanvasController | null>;
  onTriggerKey: (key: string) => void;
}) {
  const [dialog, setDialog] = useState<'deploy' | 'pause' | null>(null);
  const resume = useResumeCampaign(campaign.id, campaign.workspaceId);
  const cancel = useCancelCampaignSchedule(campaign.workspaceId);
  const running = campaign.status === 'inProgress' || campaign.status === 'active';
  return (
    <>
      {campaign.status === 'draft' && (
        <Button onClick={() => setDialog('deploy')}>
          <Rocket /> Deploy
        </Button>
      )}
      {campaign.status === 'scheduled' && (
        <Button
          variant="secondary"
          loading={cancel.isPending}
          onClick={() =>
            cancel.mutate(campaign.id, { onSuccess: () => toast.success('The scheduled start is canceled: the campaign is a draft again') })
          }
        >
          <CalendarX /> Cancel schedule
        </Button>
      )}
      {/* Pause and Resume are one button that changes: the keyboard stays on it after either (and after the Pause dialog). */}
      {(running || campaign.status === 'paused') &&
        (running ? (
          <Button key="pause-resume" variant="secondary" onClick={() => setDialog('pause')}>
            <Pause /> Pause
          </Button>
        ) : (
          <Button
            key="pause-resume"
            loading={resume.isPending}
            onClick={() => resume.mutate(undefined, { onSuccess: () => toast.success(`${campaign.name} resumed`) })}
          >
            <Play /> Resume
          </Button>
        ))}
      {dialog === 'deploy' && <DeployDialog campaign={campaign} controllerRef={controllerRef} onClose={() => setDialog(null)} onTriggerKey={onTriggerKey} />}
      {dialog === 'pause' && <PauseDialog campaignId={campaign.id} workspaceId={campaign.workspaceId} name={campaign.name} onClose={() => setDialog(null)} />}
    </>
  );
}
