/**
 * POST /bot/{botId}/preview and POST /bot/{botId}/preview/answer (additions): the bot engine runs the saved
 * draft against a simulated customer and answers one turn at a time; the session state travels with the client
 * and nothing is written. The draft is saved first, so the preview runs the canvas as it stands.
 */
import { useMemo } from 'react';
import { api } from '../../../lib/api-client';
import type { CanvasGraph } from '../../../components/canvas';
import type { BotCanvasNode } from '../canvas/types';
import type { PreviewTransport } from '../components/preview/types';
import { patchBot } from './patch-bot';

export function usePreviewTransport(botId: string, graph: () => CanvasGraph<BotCanvasNode>): PreviewTransport {
  return useMemo(
    () => ({
      start: async () => {
        await patchBot(botId, { rfInstance: graph() as never });
        return api('startBotPreview', { params: { botId }, body: {} });
      },
      answer: (after, answer) => api('answerBotPreview', { params: { botId }, body: { session: after.session, answer } }),
    }),
    [botId, graph],
  );
}
