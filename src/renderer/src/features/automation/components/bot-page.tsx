import { useParams } from '@tanstack/react-router';
import { Workflow } from 'lucide-react';
import { DetailPage, DetailsCard } from '../../../components/layout/detail-page';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { formatDateTime } from '../../../lib/format';
import { useBot } from '../api/get-bot';

/** `/automation/{botId}`: the bot's facts; the canvas editor is a later release. */
export function BotPage() {
  const { botId } = useParams({ from: '/app/automation/$botId' });
  const bot = useBot(botId);
  return (
    <DetailPage
      query={bot}
      noun="bot"
      backTo="/automation"
      backLabel="Back to automation"
      title={bot.data?.title ?? 'Bot'}
      actions={bot.data && (bot.data.isActive ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>)}
    >
      {(data) => (
        <>
          <DetailsCard
            facts={[
              { label: 'Steps', value: data.rfInstance.nodes.length },
              { label: 'Last deployed', value: formatDateTime(data.lastDeployedAt) },
              { label: 'Channel', value: data.channel },
            ]}
          />
          <Card>
            <EmptyState
              icon={Workflow}
              title="The canvas editor arrives in a later release"
              description="Bots are built on a canvas of steps. Editing that canvas is not part of this release of Parley."
            />
          </Card>
        </>
      )}
    </DetailPage>
  );
}
