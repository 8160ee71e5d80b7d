import { useParams } from '@tanstack/react-router';
import { DetailPage } from '../../../components/layout/detail-page';
import { Badge } from '../../../components/ui/badge';
import { useBot } from '../api/get-bot';
import { BotEditor } from './bot-editor';

/** `/automation/{botId}` (loaded lazily): the bot's canvas editor with its preview and deploy controls. */
export function BotPage() {
  const { botId } = useParams({ from: '/app/automation/$botId' });
  const bot = useBot(botId);
  if (bot.data) return <BotEditor key={bot.data.id} bot={bot.data} />;
  return (
    <DetailPage
      query={bot}
      noun="bot"
      backTo="/automation"
      backLabel="Back to automation"
      title="Bot"
      actions={<Badge>Loading</Badge>}
    >
      {() => null}
    </DetailPage>
  );
}
