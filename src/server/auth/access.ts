/**
 * One access check for every route, driven by the route table's `access` field:
 * token -> member -> workspace (from the path, the body, or the resource's own row) -> role.
 * A resource of another workspace answers exactly as an unknown one (404); a workspace the caller does not
 * belong to answers 403 whether or not it exists.
 */
import type { FastifyRequest } from 'fastify';
import type { Access, ResourceKind } from '../../shared/api/routes';
import { productMessages } from '../../shared/messages';
import type { Database } from '../db/client';
import { HttpError, forbidden, notFound } from '../errors';
import { findMemberByUid, membership, membershipsOf } from '../repositories/workspaces';
import { workspaceOfResource } from '../repositories/resources';
import { isUuid } from '../repositories/pagination';
import type { IdentityProvider } from '../identity/identity-provider';
import { reportAccessLost, type StreamSubject } from '../realtime/access-lost';
import type { CampaignKeyContext, Caller, WorkspaceContext } from '../services/caller';
import { campaignByKeyHash } from '../repositories/campaigns';
import { hashTriggerKey, triggerKeyOf } from '../campaigns/trigger-keys';

export const resourceLabels: Record<ResourceKind, string> = {
  bot: 'Bot',
  campaign: 'Campaign',
  attribute: 'Attribute',
  contact: 'Contact',
  conversation: 'Conversation',
  invitee: 'Invitation',
  segment: 'Segment',
  whatsappTemplate: 'Template',
  whatsappAccount: 'WhatsApp account',
  cannedReply: 'Canned reply',
};

export interface AccessDeps {
  db: Database;
  identity: IdentityProvider;
  /** Called on every failed token; answers whether the client is over its limit. */
  onTokenFailure: (request: FastifyRequest) => Promise<boolean>;
}

/** What a route asks of the caller's identity beyond a valid token (see accessOptionsFor). */
export interface AccessOptions {
  /** Ask the identity service whether the user still exists, is enabled and has no revoked tokens. */
  checkRevoked?: boolean;
  /** Refuse an identity whose e-mail address is not verified (403). */
  requireVerifiedEmail?: boolean;
}

/**
 * Calls that create or change data, and event streams (which outlive the request), are sign-in sensitive: their
 * token is checked for revocation (a deleted or disabled user, revoked sessions). Calls that create or change
 * data also need a verified e-mail address; public sign-up precedes verification and stays open.
 */
export function accessOptionsFor(def: { method: string; access: Access; stream?: true }): AccessOptions {
  const writes = def.method !== 'GET' && def.access.kind !== 'public';
  return { checkRevoked: writes || def.stream === true, requireVerifiedEmail: writes };
}

export async function authenticate(request: FastifyRequest, deps: AccessDeps, opts: AccessOptions = {}): Promise<Caller> {
  const token = bearerToken(request);
  if (!token) {
    throw (await deps.onTokenFailure(request))
      ? new HttpError(429, 'Too many failed sign-in attempts; try again in a minute')
      : new HttpError(401, productMessages.unauthenticated);
  }
  let verified;
  try {
    verified = await deps.identity.verifyIdToken(token, opts.checkRevoked === true);
  } catch (err) {
    // A genuine token of a user who was deleted or disabled, or whose sessions were revoked: end their streams.
    const uid = revokedUid(err, token);
    if (uid) reportAccessLost(deps.db, { uid });
    throw (await deps.onTokenFailure(request))
      ? new HttpError(429, 'Too many failed sign-in attempts; try again in a minute')
      : new HttpError(401, productMessages.unauthenticated);
  }
  if (opts.requireVerifiedEmail && !verified.emailVerified) throw forbidden(productMessages.emailNotVerified);
  const member = await findMemberByUid(deps.db.db, verified.uid);
  if (!member) reportAccessLost(deps.db, { uid: verified.uid });
  return { ...verified, member };
}

export type AccessResult = { caller: null } | { caller: Caller } | WorkspaceContext | CampaignKeyContext;

export async function resolveAccess(
  access: Access,
  request: FastifyRequest,
  deps: AccessDeps,
  opts: AccessOptions = {},
): Promise<AccessResult> {
  if (access.kind === 'public') return { caller: null };
  // A campaign's trigger key (another system calling), else a member as for a resource route.
  if (access.kind === 'campaignKey') {
    const key = triggerKeyOf(request);
    if (!key) return resolveAccess({ ...access, kind: 'resource' }, request, deps, opts);
    const id = (request.params as Record<string, unknown> | undefined)?.[access.field];
    const campaign = await campaignByKeyHash(deps.db.db, hashTriggerKey(key));
    if (!campaign || campaign.id !== id) throw new HttpError(401, 'Invalid trigger key for this campaign');
    return { caller: null, workspaceId: campaign.workspaceId, role: 'admin', triggerKeyHash: campaign.triggerKeyHash };
  }
  const caller = await authenticate(request, deps, opts);
  if (access.kind === 'signedIn') return { caller };

  let workspaceId: string | null;
  if (access.kind === 'workspace') {
    const source = (access.in === 'params' ? request.params : request.body) as Record<string, unknown> | undefined;
    workspaceId = typeof source?.workspaceId === 'string' ? source.workspaceId : null;
    if (!workspaceId || !caller.member || !isUuid(workspaceId)) throw forbidden(productMessages.notMember);
  } else if (access.kind === 'resource') {
    const source = (access.in === 'params' ? request.params : request.body) as Record<string, unknown> | undefined;
    const id = source?.[access.field];
    const missing = notFound(`${resourceLabels[access.resource]} not found`);
    if (typeof id !== 'string' || !caller.member) throw missing;
    workspaceId = await workspaceOfResource(deps.db.db, access.resource, id);
    if (!workspaceId) throw missing;
    const m = await membership(deps.db.db, workspaceId, caller.member.id);
    if (!m) throw missing;
  } else {
    // The current workspace is currentWorkspaceId, or else the first workspace joined (spec section 1).
    if (!caller.member) throw forbidden(productMessages.notMember);
    workspaceId = caller.member.currentWorkspaceId ?? (await membershipsOf(deps.db.db, caller.member.id))[0]?.workspaceId ?? null;
    if (!workspaceId) throw forbidden(productMessages.notMember);
  }

  const m = await membership(deps.db.db, workspaceId, caller.member!.id);
  if (!m) {
    if (caller.member) reportAccessLost(deps.db, { memberId: caller.member.id, workspaceId });
    throw forbidden(productMessages.notMember);
  }
  if (access.role === 'admin' && m.role !== 'admin') throw forbidden(productMessages.adminOnly);
  return { caller: caller as WorkspaceContext['caller'], workspaceId, role: m.role };
}

/**
 * Whether an event stream may go on: its token is checked again with revocation (a deleted or disabled user
 * ends the stream) and its member must still belong to the workspace. Called by the stream at intervals.
 */
export function streamStillAllowed(
  deps: Pick<AccessDeps, 'db' | 'identity'>,
  token: string,
  ctx: { workspaceId: string; caller: { uid: string; member: { id: string } } },
): (() => Promise<boolean>) & { subject: StreamSubject } {
  const check = async () => {
    try {
      await deps.identity.verifyIdToken(token, true);
    } catch {
      return false;
    }
    return (await membership(deps.db.db, ctx.workspaceId, ctx.caller.member.id)) !== null;
  };
  // whose stream this is, so a request that finds the user or the membership gone ends it at once
  return Object.assign(check, { subject: { uid: ctx.caller.uid, memberId: ctx.caller.member.id, workspaceId: ctx.workspaceId } });
}

/** Errors of firebase-admin's verifyIdToken that come after the token's signature was verified. */
const revokedCodes = new Set(['auth/user-disabled', 'auth/user-not-found', 'auth/id-token-revoked']);

/** The uid of a correctly signed token refused because its user is gone or revoked; null for anything else. */
function revokedUid(err: unknown, token: string): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !revokedCodes.has(code)) return null;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof payload.sub === 'string' && payload.sub ? payload.sub : null;
  } catch {
    return null;
  }
}

/** The bearer token of a request (streams take it from ?token= too: register.ts copies it into the header). */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match ? match[1] : null;
}
