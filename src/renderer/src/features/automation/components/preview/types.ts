/**
 * The preview panel's side of the output seam: the bot engine's preview turns (shared schemas), and the
 * transport that carries the simulated customer's answers to it.
 */
import type { BotPreviewAnswer, BotPreviewMessage, BotPreviewTurn } from '@shared/schemas/bot-canvas';

export type PreviewMessage = BotPreviewMessage;
export type PreviewTurn = BotPreviewTurn;
export type PreviewAnswer = BotPreviewAnswer;

export interface PreviewTransport {
  start: () => Promise<PreviewTurn>;
  /** The answer to the turn `after` (its session state goes back with it: the server keeps nothing). */
  answer: (after: PreviewTurn, answer: PreviewAnswer) => Promise<PreviewTurn>;
}
