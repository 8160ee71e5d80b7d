/** Who is calling: what a service knows of the member or key behind a request, once access has been checked. */
import type { Role } from '../../shared/schemas/common';
import type { MemberRow } from '../repositories/workspaces';

export interface Caller {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  /** When the caller's ID token expires. */
  expiresAt: Date;
  /** Null for an identity that has no Parley account yet. */
  member: MemberRow | null;
}

/** What a workspace-scoped handler knows once access has been checked. */
export interface WorkspaceContext {
  caller: Caller & { member: MemberRow };
  workspaceId: string;
  role: Role;
}

/**
 * A route that takes a campaign's trigger key (access kind `campaignKey`): called with the key,
 * `caller` is null and `triggerKeyHash` names the key; called by a member, as WorkspaceContext.
 */
export interface CampaignKeyContext {
  caller: WorkspaceContext['caller'] | null;
  workspaceId: string;
  role: Role;
  triggerKeyHash?: string | null;
}
