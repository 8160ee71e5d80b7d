/** Sign-up, the caller's own account, and the workspace: members, invitations, routing, webhook setup. */
import type { Handlers } from '../http/types';
import type { Services } from '../http/services';

export const accountRoutes = (s: Services) =>
  ({
    signUp: ({ body }) => s.auth.signUp(body),
    signUpWithInvite: ({ params, body }) => s.auth.signUpWithInvite(params.inviteToken, body),
    getMe: ({ ctx }) => s.auth.me(ctx.caller),
    patchMe: ({ ctx, body }) => s.auth.switchWorkspace(ctx.caller, body.currentWorkspaceId),
    acceptInvitee: ({ ctx, body }) => s.auth.acceptInvite(ctx.caller, body.token),
    uploadProfilePhoto: ({ ctx, request }) => s.uploads.profilePhoto(ctx.caller, request),

    createWorkspace: ({ ctx, body }) => s.workspaces.create(ctx.caller, body.name),
    getWorkspace: ({ ctx }) => s.workspaces.detail(ctx.workspaceId),
    listMembers: ({ ctx, query }) => s.workspaces.members(ctx.workspaceId, query),
    patchMember: ({ ctx, params, body }) => s.workspaces.changeRole(ctx, params.memberId, body.role),
    removeMember: ({ ctx, params }) => s.workspaces.removeMember(ctx, params.memberId),

    listInvitees: ({ ctx, query }) => s.team.listInvitees(ctx, query),
    createInvitee: ({ ctx, body }) => s.team.invite(ctx, body.email, body.role),
    validateInvitee: ({ body }) => s.team.validate(body.id),
    deleteInvitee: ({ ctx, params }) => s.team.revoke(ctx, params.id),

    listMemberRouting: ({ ctx }) => s.routing.list(ctx),
    patchMemberRouting: ({ ctx, body }) => s.routing.patch(ctx, body.memberId, { available: body.available, chatCapacity: body.chatCapacity }),
    getWebhookSetup: () => s.webhookSetup.get(),
  }) satisfies Partial<Handlers>;
