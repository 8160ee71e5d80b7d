/** WhatsApp Flows of an account, read from the Graph API (Parley keeps no copy: Meta is the source). */
import type { z } from 'zod';
import { FlowCategory, type WhatsappFlow } from '../../shared/schemas/entities';
import { notFound } from '../errors';
import * as ch from '../repositories/channel';
import type { WorkspaceContext } from './caller';
import type { Channel } from '../whatsapp/channel';
import type { GraphClient } from '../whatsapp/graph-client';
import { viaGraph } from '../whatsapp/graph-failure';
import type { ServiceDeps } from './context';

const categories = new Set<string>(FlowCategory.options);

export function flowService(d: ServiceDeps, channel: Channel, graph: GraphClient) {
  return {
    async list(ctx: WorkspaceContext, whatsappAccountId: string): Promise<z.infer<typeof WhatsappFlow>[]> {
      const account = await ch.account(d.db.db, ctx.workspaceId, whatsappAccountId);
      if (!account) throw notFound('WhatsApp account not found');
      const flows = await viaGraph(d.log, 'list flows', () => graph.listFlows(channel.credsOf(account)));
      return flows.map((f) => ({
        id: f.id,
        name: f.name,
        status: f.status,
        // A category Meta adds later is left out rather than failing the whole list.
        categories: f.categories.filter((c): c is z.infer<typeof FlowCategory> => categories.has(c)),
        validation_errors: f.validation_errors ?? [],
      }));
    },
  };
}
