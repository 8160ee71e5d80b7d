/**
 * Thin handlers, one per route of the shared table, grouped by domain: each unpacks the validated request and
 * calls a service. The compiler checks that every implemented route has exactly one handler.
 */
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';
import type { Config } from '../config';
import { accountRoutes } from './account';
import { audienceRoutes } from './audience';
import { botRoutes } from './bots';
import { campaignRoutes } from './campaigns';
import { conversationRoutes } from './conversations';
import { pricingRoutes } from './pricing';
import { whatsappRoutes } from './whatsapp';

export function buildHandlers(s: Services, rateLimits: Pick<Config['rateLimits'], 'triggerCallsPer10s'>): Handlers {
  return {
    ...accountRoutes(s),
    ...audienceRoutes(s),
    ...botRoutes(s),
    ...campaignRoutes(s, rateLimits.triggerCallsPer10s),
    ...conversationRoutes(s),
    ...whatsappRoutes(s),
    ...pricingRoutes(s),
  };
}
