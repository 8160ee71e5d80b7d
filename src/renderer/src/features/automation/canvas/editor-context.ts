/**
 * What node views and forms of one open bot need besides the node itself: the workspace's attributes and
 * members (from the workspace record), the bot's id and WhatsApp number, and the node the preview is at.
 * Attributes and members come through a context (stable for the editor's life, so 500 nodes do not each
 * subscribe to a query); the preview's current node is a small zustand store read with a boolean selector.
 */
import type { Attribute } from '@shared/schemas/entities';
import type { MemberProfile } from '@shared/schemas/auth';
import { createContext, useContext } from 'react';
import { create } from 'zustand';

export interface BotEditorContext {
  botId: string;
  whatsappAccountId: string | null;
  attributes: readonly Attribute[];
  attributesById: ReadonlyMap<string, Attribute>;
  members: readonly MemberProfile[];
  membersById: ReadonlyMap<string, MemberProfile>;
}

const empty: BotEditorContext = {
  botId: '',
  whatsappAccountId: null,
  attributes: [],
  attributesById: new Map(),
  members: [],
  membersById: new Map(),
};

export const BotEditorContextValue = createContext<BotEditorContext>(empty);
export const useBotEditor = () => useContext(BotEditorContextValue);

export function makeBotEditorContext(
  botId: string,
  whatsappAccountId: string | null,
  attributes: readonly Attribute[],
  members: readonly MemberProfile[],
): BotEditorContext {
  return {
    botId,
    whatsappAccountId,
    attributes,
    attributesById: new Map(attributes.map((a) => [a.id, a])),
    members,
    membersById: new Map(members.map((m) => [m.id, m])),
  };
}

export const memberName = (m: MemberProfile | undefined) => m?.displayName || m?.email || 'Unknown member';

/** The node a running preview is at (highlighted on the canvas). */
export const usePreviewCursor = create<{ nodeId: string | null; setNodeId: (id: string | null) => void }>((set) => ({
  nodeId: null,
  setNodeId: (nodeId) => set({ nodeId }),
}));
