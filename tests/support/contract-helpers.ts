/**
 * What only tests ask of the shared contract: the node kinds each canvas schema holds (the product reads a node's
 * kind from the node itself), and a path written as the spec writes it (`{param}`).
 */
import { BotNode, type BotNodeType } from '../../src/shared/schemas/bot-canvas';
import { CampaignNode } from '../../src/shared/schemas/campaign-canvas';

export const botNodeTypes = BotNode.options.map((o) => o.shape.type.value) as BotNodeType[];
export const campaignNodeTypes = CampaignNode.options.map((o) => o.shape.type.value) as CampaignNode['type'][];

/** `{param}` form of a path, as the spec and OpenAPI write it. */
export function specPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}
