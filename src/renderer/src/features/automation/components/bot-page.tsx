import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft, Workflow } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { ListSkeleton } from '../../../components/ui/skeleton';
import { formatDateTime } from '../../../lib/format';
import { useBot } from '../api/get-bot';

/** `/automation/{botId}`: the bot's facts; the canvas editor is a later release. */
export function BotPage() {
  const { botId } = useParams({ from: '/app/automation/$botId' });
  const bot = useBot(botId);
  return (
    <>
      <PageHeader
        title={
          <span className="flex items-center gap-2">
            <Button variant="ghost" size="icon-sm" asChild>
              <Link to="/automation" aria-label="Back to automation">
                <ArrowLeft />
              </Link>
            </Button>
            {bot.data?.title ?? 'Bot'}
          </span>
        }
        actions={bot.data && (bot.data.isActive ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>)}
      />
      <div className="flex flex-col gap-6 p-6">
        {bot.isPending ? (
          <Card>
            <ListSkeleton rows={2} label="Loading bot" />
          </Card>
        ) : bot.isError ? (
          <EmptyState title="Could not load the bot" description={bot.error.message} />
        ) : (
          <>
            <Card>
              <CardHeader title="Details" />
              <dl className="grid grid-cols-3 gap-4 px-5 py-4 text-[13px]">
                <div>
                  <dt className="text-fg-subtle">Steps</dt>
                  <dd className="mt-0.5 font-medium">{bot.data.rfInstance.nodes.length}</dd>
                </div>
                <div>
                  <dt className="text-fg-subtle">Last deployed</dt>
                  <dd className="mt-0.5 font-medium">{formatDateTime(bot.data.lastDeployedAt)}</dd>
                </div>
                <div>
                  <dt className="text-fg-subtle">Channel</dt>
                  <dd className="mt-0.5 font-medium">{bot.data.channel}</dd>
                </div>
              </dl>
            </Card>
            <Card>
              <EmptyState
                icon={Workflow}
                title="The canvas editor arrives in a later release"
                description="Bots are built on a canvas of steps. Editing that canvas is not part of this release of Parley."
              />
            </Card>
          </>
        )}
      </div>
    </>
  );
}
