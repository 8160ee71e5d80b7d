// Routes of the account: sign-up (plain or by invitation) and the signed-in member.
import { InviteSignUpBody, Member, PatchMeBody, SignUpBody } from '../../schemas/auth';
import { AuthMe } from '../../schemas/entities';
import { pathParams, route } from './define';

export const authRoutes = {
  signUp: route({
    method: 'POST', path: '/auth/sign-up', tag: 'auth', summary: 'Create an account, its workspace and admin membership',
    body: SignUpBody, status: 201, response: Member, access: { kind: 'public' },
  }),
  signUpWithInvite: route({
    method: 'POST', path: '/auth/sign-up/:inviteToken', tag: 'auth', summary: 'Create an account by invitation and join its workspace',
    params: pathParams.inviteToken, body: InviteSignUpBody, status: 201, response: Member, access: { kind: 'public' },
  }),
  getMe: route({
    method: 'GET', path: '/auth/me', tag: 'auth', summary: 'The signed-in member with its workspaces',
    status: 200, response: AuthMe, access: { kind: 'signedIn' },
  }),
  patchMe: route({
    method: 'PATCH', path: '/auth/me', tag: 'auth', summary: 'Switch the current workspace',
    body: PatchMeBody, status: 200, response: AuthMe, access: { kind: 'signedIn' },
  }),
} as const;
