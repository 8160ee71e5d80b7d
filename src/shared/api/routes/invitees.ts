// Routes of an invitation.
import * as z from '../../zod';
import { Success } from '../../schemas/common';
import { AuthMe, InviteValidation } from '../../schemas/entities';
import { CreateInviteeBody, ValidateInviteeBody } from '../../schemas/requests';
import { adminIn, pathParams, route, wsBody } from './define';

export const inviteeRoutes = {
  createInvitee: route({
    method: 'POST', path: '/invitee', tag: 'invitee', summary: 'Invite someone by e-mail with a role',
    body: CreateInviteeBody, status: 201, response: Success, access: wsBody('admin'),
  }),
  validateInvitee: route({
    method: 'POST', path: '/invitee/validate', tag: 'invitee', summary: 'Look up an invitation by id',
    body: ValidateInviteeBody, status: 200, response: InviteValidation, access: { kind: 'public' },
  }),
  acceptInvitee: route({
    method: 'POST', path: '/invitee/accept', tag: 'invitee', summary: 'Join the workspace of an invitation as an existing user',
    body: z.strictObject({ token: z.string().min(1).max(256) }), status: 200, response: AuthMe, access: { kind: 'signedIn' },
    addition: true,
  }),
  deleteInvitee: route({
    method: 'DELETE', path: '/invitee/:id', tag: 'invitee', summary: 'Revoke an invitation',
    params: pathParams.id, status: 200, response: Success, access: adminIn('invitee', 'id'),
  }),
} as const;
