import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Email } from '@shared/schemas/auth';
import { AuthCard } from '../../../components/layout/guest-layout';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { PasswordInput } from '../../../components/ui/password-input';
import { authErrorMessage, signIn } from '../../../lib/auth';
import { landingHref, safeRedirect } from '../../../lib/paths';
import { ServerAddressSetting } from './server-address-setting';

const LoginForm = z.object({
  email: Email,
  password: z.string().min(1, { error: 'Please enter your password' }),
});
type LoginForm = z.infer<typeof LoginForm>;

/** `/login?redirect=...` */
export function LoginPage() {
  const { redirect } = useSearch({ from: '/guest/login' });
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginForm>({ resolver: zodResolver(LoginForm), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = async ({ email, password }: LoginForm) => {
    setFailure(null);
    try {
      const user = await signIn(email, password);
      const target = safeRedirect(redirect);
      if (!user.emailVerified) {
        await navigate({ to: '/verify-email-address', search: { redirect: target } });
        return;
      }
      await navigate({ href: target ?? landingHref(), replace: true });
    } catch (err) {
      setFailure(authErrorMessage(err));
    }
  };

  return (
    <AuthCard title="Sign in to Parley" description="Welcome back. Sign in with your work email.">
      <form noValidate className="flex flex-col gap-4" onSubmit={form.handleSubmit(onSubmit)}>
        {failure && (
          <div role="alert" className="rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-[13px] text-danger">
            {failure}
          </div>
        )}
        <FormField label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus {...form.register('email')} />
        </FormField>
        <FormField label="Password" error={errors.password?.message}>
          <PasswordInput autoComplete="current-password" {...form.register('password')} />
        </FormField>
        <div className="-mt-1 flex justify-end">
          <Link to="/forgot-password" className="text-xs font-medium text-accent-text hover:underline">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="lg" loading={isSubmitting} className="w-full">
          Sign in
        </Button>
      </form>
      <p className="mt-5 text-center text-[13px] text-fg-muted">
        New to Parley?{' '}
        <Link to="/signup" className="font-medium text-accent-text hover:underline">
          Create an account
        </Link>
      </p>
      <ServerAddressSetting />
    </AuthCard>
  );
}
