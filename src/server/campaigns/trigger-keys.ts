/**
 * Trigger keys of recurring campaigns: other systems call POST /outbound/{campaignId} with
 * the campaign's own key instead of a member's ID token. A key is shown once; only its sha256 is stored. Each
 * key may make `limits.campaign.triggerCallsPer10s` calls per 10 seconds (per process), then 429 with
 * Retry-After.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { limits } from '../../shared/limits';

export const triggerKeyPrefix = 'pk_';
export const newTriggerKey = (): string => `${triggerKeyPrefix}${randomBytes(24).toString('base64url')}`;
export const hashTriggerKey = (key: string): string => createHash('sha256').update(key).digest('hex');
export const keyHint = (key: string): string => key.slice(-4);

/** The trigger key a request carries (X-Parley-Key, or a Bearer token that is a key), else null. */
export function triggerKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['x-parley-key'];
  if (typeof header === 'string' && header.startsWith(triggerKeyPrefix)) return header.trim();
  const auth = request.headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)$/i.exec(auth)?.[1] : undefined;
  return bearer?.startsWith(triggerKeyPrefix) ? bearer : null;
}

/**
 * A sliding 10-second window per key hash; answers the seconds to wait when over the limit, else 0. `now` is when
 * the call arrived: calls that come together are counted together however long the key's look-up took each of
 * them, so they may be counted out of order; the window is kept sorted.
 */
export function createKeyRateLimiter(max: number = limits.campaign.triggerCallsPer10s, windowMs = 10_000) {
  const calls = new Map<string, number[]>();
  return (keyHash: string, now = Date.now()): number => {
    const recent = (calls.get(keyHash) ?? []).filter((t) => t > now - windowMs);
    if (recent.length >= max) {
      calls.set(keyHash, recent);
      return Math.max(1, Math.ceil((recent[0] + windowMs - now) / 1000));
    }
    const at = recent.findIndex((t) => t > now);
    recent.splice(at === -1 ? recent.length : at, 0, now);
    calls.set(keyHash, recent);
    return 0;
  };
}
