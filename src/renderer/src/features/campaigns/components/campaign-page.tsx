import { useParams } from '@tanstack/react-router';
import { Workflow } from 'lucide-react';
import { DetailPage, DetailsCard } from '../../../components/layout/detail-page';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useCampaign } from '../api/get-campaign';
import { CampaignStatusBadge } from './campaign-status';

/** `/campaigns/{campaignId}`: the campaign's facts; the canvas editor is a later release. */
export function CampaignPage() {
  const { campaignId } = useParams({ from: '/app/campaigns/$campaignId' });
  const campaign = useCampaign(campaignId);
  return (
    <DetailPage
      query={campaign}
      noun="campaign"
      backTo="/campaigns"
      backLabel="Back to campaigns"
      title={campaign.data?.name ?? 'Campaign'}
      actions={campaign.data && <CampaignStatusBadge status={campaign.data.status} />}
    >
      {(data) => (
        <>
          <DetailsCard
            facts={[
              { label: 'Type', value: data.type === 'oneTime' ? 'One-time' : 'Recurring' },
              { label: 'Steps', value: data.rfInstance.nodes.length },
              { label: 'Resumes', value: formatDateTime(data.resumeAt) },
              { label: 'Created', value: formatDate(data.createdAt) },
            ]}
          />
          <Card>
            <EmptyState
              icon={Workflow}
              title="The canvas editor arrives in a later release"
              description="Campaigns are built on a canvas of steps (trigger, send, delay). Editing that canvas is not part of this release of Parley."
            />
          </Card>
        </>
      )}
    </DetailPage>
  );
}
