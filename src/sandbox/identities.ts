/**
 * Simulated customers as WhatsApp knows them since 2026 (reference whatsapp-platform-2026.md section 1): every
 * customer has a business-scoped user id (BSUID, `US.` and digits, derived from the phone until it changes), may
 * have a username, and a customer with a username may have their phone withheld from the business: then the
 * webhooks carry `from_user_id` / `user_id` and the username, never `from` / `wa_id`, and the business writes to
 * them with `recipient` (the user id) instead of `to`. The sandbox still keys a customer by phone internally.
 */
import { createHash } from 'node:crypto';
type Obj = Record<string, unknown>;

export interface SandboxCustomer {
  waId: string;
  userId: string;
  username?: string;
  /** Meta withholds the phone from the business (only for customers with a username). */
  phoneHidden: boolean;
}

/** What Meta accepts as a (parent) business-scoped user id. */
export const userIdPattern = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

/** A user id derived from a seed: stable across restarts, 20 digits like Meta's. */
function derivedUserId(country: string, seed: string): string {
  const n = BigInt(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`).toString().padStart(20, '0').slice(0, 20);
  return `${country}.${n}`;
}

/** The ISO country of a phone, roughly (the sandbox only needs a plausible prefix). */
const countryOf = (waId: string) => (waId.startsWith('1') ? 'US' : waId.startsWith('44') ? 'GB' : waId.startsWith('49') ? 'DE' : waId.startsWith('34') ? 'ES' : 'US');

export class CustomerIdentities {
  private readonly byWaId = new Map<string, SandboxCustomer>();
  private readonly generation = new Map<string, number>();

  /** The customer of a phone, created with their derived user id on first use. */
  of(waId: string): SandboxCustomer {
    let c = this.byWaId.get(waId);
    if (!c) this.byWaId.set(waId, (c = { waId, userId: derivedUserId(countryOf(waId), waId), phoneHidden: false }));
    return c;
  }

  byUserId(userId: string): SandboxCustomer | undefined {
    return [...this.byWaId.values()].find((c) => c.userId === userId);
  }

  /** Sets a username (empty: none) and whether the phone is withheld; a hidden phone needs a username. */
  set(waId: string, change: { username?: string; hidePhone?: boolean }): SandboxCustomer {
    const c = this.of(waId);
    if (change.username !== undefined) c.username = change.username.replace(/^@/, '') || undefined;
    if (change.hidePhone !== undefined) c.phoneHidden = change.hidePhone;
    if (c.phoneHidden && !c.username) throw new Error(`customer ${waId}: Meta withholds the phone only of a customer with a username`);
    return c;
  }

  /** The customer gets a new user id (as when they change phone): answers the previous and the current one. */
  changeUserId(waId: string): { previous: string; current: string } {
    const c = this.of(waId);
    const previous = c.userId;
    const next = (this.generation.get(waId) ?? 0) + 1;
    this.generation.set(waId, next);
    c.userId = derivedUserId(countryOf(waId), `${waId}#${next}`);
    return { previous, current: c.userId };
  }

  /** The `contacts[]` entry of the customer's webhooks; `username` only where Meta shows it (not on `sent`). */
  contactEntry(c: SandboxCustomer, name: string | undefined, opts: { username?: boolean } = {}): Obj {
    const profile: Obj = { ...(name !== undefined ? { name } : {}), ...(c.username && opts.username !== false ? { username: c.username } : {}) };
    return { ...(Object.keys(profile).length ? { profile } : {}), ...(c.phoneHidden ? {} : { wa_id: c.waId }), user_id: c.userId };
  }

  /** The phone fields of a webhook item (`from`, `wa_id`, `recipient_id`, ...): none when the phone is hidden. */
  phoneField(c: SandboxCustomer, key: string): Obj {
    return c.phoneHidden ? {} : { [key]: c.waId };
  }
}
