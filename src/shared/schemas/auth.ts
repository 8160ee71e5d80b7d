import * as z from '../zod';
import { messages, productMessages } from '../messages';
import { limits } from '../limits';
import { Id, Role, Timestamp } from './common';

/** Public e-mail providers are refused: the domain starts with hotmail, gmail or yahoo (spec section 5). */
export function isPublicEmail(email: string): boolean {
  const domain = email.split('@').pop()?.toLowerCase() ?? '';
  return /^(hotmail|gmail|yahoo)/.test(domain);
}

export const Email = z.email({ error: messages.invalidEmail }).max(254, { error: messages.invalidEmail });
export const OfficialEmail = Email.refine((v) => !isPublicEmail(v), { error: messages.publicEmail });
export const Password = z
  .string({ error: productMessages.passwordLength })
  .min(limits.password.min, { error: productMessages.passwordLength })
  .max(limits.password.max, { error: productMessages.passwordLength });

export const SignUpBody = z.strictObject({
  email: OfficialEmail,
  password: Password,
  name: z
    .string({ error: messages.name })
    .trim()
    .min(limits.userName.min, { error: messages.name })
    .max(limits.userName.max, { error: messages.name }),
  organizationName: z
    .string({ error: messages.organizationName })
    .trim()
    .min(limits.organizationName.min, { error: messages.organizationName })
    .max(limits.organizationName.max, { error: messages.organizationName }),
});
export type SignUpBody = z.infer<typeof SignUpBody>;

/** Joining by invitation needs only e-mail and password (the invitation decides the workspace and role). */
export const InviteSignUpBody = z.strictObject({ email: Email, password: Password });
export type InviteSignUpBody = z.infer<typeof InviteSignUpBody>;

export const Member = z.object({
  id: Id,
  uid: z.string(),
  /** The member's role in its current workspace. */
  role: Role,
  createdAt: Timestamp,
  currentWorkspaceId: Id.nullable(),
  workspaceIds: z.array(Id),
});
export type Member = z.infer<typeof Member>;

/** Identity profile data joined to a member in listings (spec: member listings add identity data). */
export const MemberProfile = Member.extend({
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  displayName: z.string().nullable(),
  photoURL: z.string().nullable(),
  phone: z.string().nullable(),
  metadata: z.object({
    creationTime: z.string().nullable(),
    lastSignInTime: z.string().nullable(),
  }),
});
export type MemberProfile = z.infer<typeof MemberProfile>;

export const PatchMeBody = z.strictObject({ currentWorkspaceId: Id });

/** Addition: an admin gives a member of the workspace another role there. */
export const PatchMemberRoleBody = z.strictObject({ role: Role });
