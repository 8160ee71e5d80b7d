import { useMutation } from '@tanstack/react-query';
import type { InviteSignUpBody } from '@shared/schemas/auth';
import { api } from '../../../lib/api-client';
import { sendVerificationEmail, signIn } from '../../../lib/auth';

/** POST /auth/sign-up/{inviteToken}: joins the inviting workspace; then sign in and verify the address. */
export function useSignUpWithInvite(inviteToken: string) {
  return useMutation({
    mutationFn: async (body: InviteSignUpBody) => {
      const member = await api('signUpWithInvite', { params: { inviteToken }, body });
      const user = await signIn(body.email, body.password);
      if (!user.emailVerified) await sendVerificationEmail();
      return member;
    },
  });
}
