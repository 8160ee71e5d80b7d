import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft, Workflow } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { ListSkeleton } from '../../../components/ui/skeleton';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useCampaign } from '../api/get-campaign';
import { CampaignStatusBadge } from './campaign-status';

/** `/campaigns/{campaignId}`: the campaign's facts; the canvas editor is a later release. */
export function CampaignPage() {
  const { campaignId } = useParams({ from: '/app/campaigns/$campaignId' });
  const campaign = useCampaign(campaignId);
  return (
    <>
      <PageHeader
        title={
          <span className="flex items-center gap-2">
            <Button variant="ghost" size="icon-sm" asChild>
              <Link to="/campaigns" aria-label="Back to campaigns">
                <ArrowLeft />
              </Link>
            </Button>
            {campaign.data?.name ?? 'Campaign'}
          </span>
        }
        actions={campaign.data && <CampaignStatusBadge status={campaign.data.status} />}
      />
      <div className="flex flex-col gap-6 p-6">
        {campaign.isPending ? (
          <Card>
            <ListSkeleton rows={2} label="Loading campaign" />
          </Card>
        ) : campaign.isError ? (
          <EmptyState title="Could not load the campaign" description={campaign.error.message} />
        ) : (
          <>
            <Card>
              <CardHeader title="Details" />
              <dl className="grid grid-cols-4 gap-4 px-5 py-4 text-[13px]">
                <div>
                  <dt className="text-fg-subtle">Type</dt>
                  <dd className="mt-0.5 font-medium">{campaign.data.type === 'oneTime' ? 'One-time' : 'Recurring'}</dd>
                </div>
                <div>
                  <dt className="text-fg-subtle">Steps</dt>
                  <dd className="mt-0.5 font-medium">{campaign.data.rfInstance.nodes.length}</dd>
                </div>
                <div>
                  <dt className="text-fg-subtle">Resumes</dt>
                  <dd className="mt-0.5 font-medium">{formatDateTime(campaign.data.resumeAt)}</dd>
                </div>
                <div>
                  <dt className="text-fg-subtle">Created</dt>
                  <dd className="mt-0.5 font-medium">{formatDate(campaign.data.createdAt)}</dd>
                </div>
              </dl>
            </Card>
            <Card>
              <EmptyState
                icon={Workflow}
                title="The canvas editor arrives in a later release"
                description="Campaigns are built on a canvas of steps (trigger, send, delay). Editing that canvas is not part of this release of Parley."
              />
            </Card>
          </>
        )}
      </div>
    </>
  );
}
