/**
 * The preview's transport: the bot engine's preview routes (additions), running the canvas as it stands.
 * Until those routes are in the route table, starting a preview says so.
 */
import { useMemo } from 'react';
import type { CanvasGraph } from '../../../components/canvas';
import type { BotCanvasNode } from '../canvas/types';
import type { PreviewTransport } from '../components/preview/types';

export function usePreviewTransport(_botId: string, _graph: () => CanvasGraph<BotCanvasNode>): PreviewTransport {
  return useMemo(
    () => ({
      start: () => Promise.reject(new Error('The preview is not available on this server yet')),
      answer: () => Promise.reject(new Error('The preview is not available on this server yet')),
    }),
    [],
  );
}
