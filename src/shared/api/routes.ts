/**
 * The REST route table: every call of product spec section 7 (plus marked additions) as data.
 * The server registers its routes from it, the renderer's typed client calls through it, the OpenAPI document
 * at /docs is generated from it, and the isolation and malformed-input tests walk it.
 * Each domain writes its part in routes/<domain>.ts; this file puts them together in the table's order.
 */
import { agentToolRoutes } from './routes/agent-tools';
import { attributeRoutes } from './routes/attributes';
import { authRoutes } from './routes/auth';
import { botRoutes } from './routes/bots';
import { campaignRoutes } from './routes/campaigns';
import { contactRoutes } from './routes/contacts';
import { conversationRoutes, presenceRoutes } from './routes/conversations';
import { importRoutes } from './routes/imports';
import { inviteeRoutes } from './routes/invitees';
import { memberRoutes } from './routes/members';
import { interactiveMessageRoutes, messageRoutes } from './routes/messages';
import { pricingRoutes } from './routes/pricing';
import { segmentRoutes } from './routes/segments';
import { templateRoutes } from './routes/templates';
import { webhookSetupRoutes, whatsappRoutes } from './routes/whatsapp';
import { memberRoutingRoutes, workspaceRoutes } from './routes/workspace';

export { type Access, type MultipartSpec, type ResourceKind, type RouteDef } from './routes/define';

export const routes = {
  ...authRoutes,
  ...workspaceRoutes,
  ...botRoutes,
  ...campaignRoutes,
  ...attributeRoutes,
  ...contactRoutes,
  ...memberRoutes,
  ...messageRoutes,
  ...importRoutes,
  ...inviteeRoutes,
  ...conversationRoutes,
  ...templateRoutes,
  ...segmentRoutes,
  ...whatsappRoutes,
  ...agentToolRoutes,
  ...memberRoutingRoutes,
  ...webhookSetupRoutes,
  ...presenceRoutes,
  ...interactiveMessageRoutes,
  ...pricingRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export const routeNames = Object.keys(routes) as RouteName[];

/** Fills `:param` placeholders. */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`Missing path parameter ${k} for ${path}`);
    return encodeURIComponent(v);
  });
}
