import { createContext, useContext } from 'react';
import type { Campaign } from '@shared/schemas/entities';

/** What the campaign's node forms need beyond their own data. */
export interface CampaignEditor {
  workspaceId: string;
  campaign: Campaign;
  /** A trigger key just created (deploy or rotate): shown once, then only its hint. */
  freshTriggerKey: string | null;
  setFreshTriggerKey: (key: string | null) => void;
}

export const CampaignEditorContext = createContext<CampaignEditor | null>(null);

export function useCampaignEditor(): CampaignEditor {
  const ctx = useContext(CampaignEditorContext);
  if (!ctx) throw new Error('Campaign nodes render inside the campaign editor');
  return ctx;
}
