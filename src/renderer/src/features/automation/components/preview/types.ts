/**
 * What the preview panel shows: the bot's messages as WhatsApp would show them, where the bot is, and what it
 * collected. The panel talks to the bot engine's preview through a transport (the output seam's preview side).
 */
export interface PreviewChoice {
  id: string;
  title: string;
  description?: string | null;
}

export type PreviewMessage =
  | { kind: 'text'; text: string }
  | { kind: 'media'; mediaType: 'image' | 'video' | 'document'; link: string; caption?: string | null; filename?: string | null }
  | { kind: 'list'; header?: string | null; body: string; footer?: string | null; buttonName: string; rows: PreviewChoice[] }
  | { kind: 'buttons'; header?: string | null; body: string; footer?: string | null; buttons: PreviewChoice[] }
  | { kind: 'flow'; header?: string | null; body: string; footer?: string | null; cta: string; flowId: string }
  /** What the runtime did without a customer message (an e-mail sent, a web call, the handoff). */
  | { kind: 'event'; text: string };

export interface PreviewTurn {
  sessionId: string;
  messages: PreviewMessage[];
  /** The node the session waits at (or ended on). */
  currentNodeId: string | null;
  /** Attribute name -> value collected in this preview (nothing is written to contacts). */
  attributes: Record<string, string>;
  ended: boolean;
  endReason?: string | null;
}

export type PreviewAnswer = { text: string } | { choice: PreviewChoice };

export interface PreviewTransport {
  start: () => Promise<PreviewTurn>;
  answer: (sessionId: string, answer: PreviewAnswer) => Promise<PreviewTurn>;
}
