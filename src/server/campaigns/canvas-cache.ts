/** Deployed canvases read once per deploy: a campaign's canvas is decoded again only when it is deployed again. */
import type { CampaignDraftRfInstance } from '../../shared/schemas/campaign-canvas';
import type { CampaignRow } from '../repositories/campaigns';
import { type DeployedCanvas, readDeployedCanvas } from './deployed-canvas';

export type CanvasOf = (row: CampaignRow) => DeployedCanvas | null;

export function deployedCanvasCache(): CanvasOf {
  const canvases = new Map<string, { deployedAt: number; canvas: DeployedCanvas }>();
  return (row) => {
    if (!row.deployedRf) return null;
    const at = row.deployedAt?.getTime() ?? 0;
    const cached = canvases.get(row.id);
    if (cached && cached.deployedAt === at) return cached.canvas;
    const canvas = readDeployedCanvas(row.deployedRf as CampaignDraftRfInstance);
    canvases.set(row.id, { deployedAt: at, canvas });
    return canvas;
  };
}
