import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { InviteSignUpBody, SignUpBody } from '@shared/schemas/auth';
import { AuthCard } from '../../../components/layout/guest-layout';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { PasswordInput } from '../../../components/ui/password-input';
import { useSignUp } from '../api/sign-up';
import { useSignUpWithInvite } from '../api/sign-up-with-invite';

/** `/signup`, or `/signup?email&token` to join a workspace by invitation (e-mail and password only). */
export function SignUpPage() {
  const { email, token } = useSearch({ from: '/guest/signup' });
  return token ? <InviteSignUpForm token={token} email={email ?? ''} /> : <SignUpForm email={email ?? ''} />;
}

function SignUpForm({ email }: { email: string }) {
  const navigate = useNavigate();
  const signUp = useSignUp();
  const form = useForm<SignUpBody>({
    resolver: zodResolver(SignUpBody),
    defaultValues: { name: '', organizationName: '', email, password: '' },
  });
  const { errors } = form.formState;
  return (
    <AuthCard title="Create your account" description="Start a workspace for your team. You will be its admin.">
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={form.handleSubmit((body) =>
          signUp.mutate(body, { onSuccess: () => void navigate({ to: '/verify-email-address' }) }),
        )}
      >
        <FormField label="Your name" error={errors.name?.message}>
          <Input autoComplete="name" autoFocus {...form.register('name')} />
        </FormField>
        <FormField label="Organization" error={errors.organizationName?.message}>
          <Input autoComplete="organization" {...form.register('organizationName')} />
        </FormField>
        <FormField label="Work email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@company.com" {...form.register('email')} />
        </FormField>
        <FormField label="Password" error={errors.password?.message} hint="8 to 50 characters">
          <PasswordInput autoComplete="new-password" {...form.register('password')} />
        </FormField>
        <Button type="submit" size="lg" loading={signUp.isPending} className="mt-1 w-full">
          Create account
        </Button>
      </form>
      <p className="mt-5 text-center text-[13px] text-fg-muted">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-accent-text hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

function InviteSignUpForm({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const signUp = useSignUpWithInvite(token);
  const form = useForm<InviteSignUpBody>({
    resolver: zodResolver(InviteSignUpBody),
    defaultValues: { email, password: '' },
  });
  const { errors } = form.formState;
  return (
    <AuthCard title="Join your team" description="Create your account to accept the invitation.">
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={form.handleSubmit((body) =>
          signUp.mutate(body, { onSuccess: () => void navigate({ to: '/verify-email-address' }) }),
        )}
      >
        <FormField label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        <FormField label="Password" error={errors.password?.message} hint="8 to 50 characters">
          <PasswordInput autoComplete="new-password" autoFocus {...form.register('password')} />
        </FormField>
        <Button type="submit" size="lg" loading={signUp.isPending} className="mt-1 w-full">
          Create account and join
        </Button>
      </form>
    </AuthCard>
  );
}
