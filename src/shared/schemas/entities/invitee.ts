// An invitation to a workspace, and what looking one up answers.
import * as z from '../../zod';
import { Id, Role, Timestamp } from '../common';

export const Invitee = z.object({
  id: Id,
  email: z.string(),
  used: z.boolean(),
  role: Role,
  token: z.string(),
  createdAt: Timestamp,
  memberId: Id,
  workspaceId: Id,
});
export type Invitee = z.infer<typeof Invitee>;
/**
 * What POST /invitee/validate answers: only what the invitation page shows, not the token, the
 * inviting member or the invitee's identity uid, so the answer is worth nothing beyond the link itself.
 */
export const InviteValidation = z.object({
  email: z.string(),
  role: Role,
  /** Addition: the inviting workspace's name, to greet the invitee. */
  workspaceName: z.string(),
  /** Addition (replaces the spec's `uid`): an identity with this e-mail exists, so the invitee signs in instead. */
  hasAccount: z.boolean(),
});
