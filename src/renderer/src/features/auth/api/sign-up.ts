import { useMutation } from '@tanstack/react-query';
import type { SignUpBody } from '@shared/schemas/auth';
import { api } from '../../../lib/api-client';
import { sendVerificationEmail, signIn } from '../../../lib/auth';

/** POST /auth/sign-up, then sign in and send the verification e-mail. */
export function useSignUp() {
  return useMutation({
    mutationFn: async (body: SignUpBody) => {
      const member = await api('signUp', { body });
      await signIn(body.email, body.password);
      await sendVerificationEmail();
      return member;
    },
  });
}
