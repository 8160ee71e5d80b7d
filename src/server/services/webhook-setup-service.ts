/**
 * What an admin gives Meta to connect the webhook: the callback address and the verify token, and
 * whether Meta's verification call (GET with hub.challenge) has reached this server, and when.
 */
import { graphTarget } from '../whatsapp/graph-target';
import { WEBHOOK_PATH } from '../whatsapp/webhook-path';
import { lastVerified, recordVerified } from '../repositories/webhook-verifications';
import type { ServiceDeps } from './context';

const CHANNEL = 'whatsapp';

export function webhookSetupService(d: ServiceDeps) {
  return {
    /** Called by the webhook route when a verification succeeded. */
    async verified(at = new Date()): Promise<void> {
      await recordVerified(d.db.db, CHANNEL, at);
    },
    async get() {
      const at = await lastVerified(d.db.db, CHANNEL);
      return {
        callbackUrl: `${d.config.publicUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`,
        verifyToken: d.config.whatsappVerifyToken ?? null,
        appSecretConfigured: !!d.config.whatsappAppSecret,
        lastVerifiedAt: at ? at.toISOString() : null,
        graphApi: graphTarget(d.config.graphApiUrl),
      };
    },
  };
}
