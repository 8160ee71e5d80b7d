import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Email } from '@shared/schemas/auth';
import { AuthCard } from '../../../components/layout/guest-layout';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { authErrorMessage, resetPassword } from '../../../lib/auth';

const ForgotForm = z.object({ email: Email });

/** `/forgot-password`: the identity service e-mails a reset link. */
export function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<z.infer<typeof ForgotForm>>({ resolver: zodResolver(ForgotForm), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  if (sentTo) {
    return (
      <AuthCard title="Check your inbox" description={`If an account exists for ${sentTo}, we sent it a link to reset the password.`}>
        <Button asChild variant="secondary" size="lg" className="w-full">
          <Link to="/login">Back to sign in</Link>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset your password" description="Enter your work email and we will send you a reset link.">
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={form.handleSubmit(async ({ email }) => {
          setFailure(null);
          try {
            await resetPassword(email);
            setSentTo(email);
          } catch (err) {
            // Unknown addresses are not revealed: say the same as for a known one.
            if ((err as { code?: string }).code === 'auth/user-not-found') setSentTo(email);
            else setFailure(authErrorMessage(err));
          }
        })}
      >
        {failure && (
          <div role="alert" className="rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-[13px] text-danger">
            {failure}
          </div>
        )}
        <FormField label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus {...form.register('email')} />
        </FormField>
        <Button type="submit" size="lg" loading={isSubmitting} className="w-full">
          Send reset link
        </Button>
      </form>
      <p className="mt-5 text-center text-[13px] text-fg-muted">
        Remembered it?{' '}
        <Link to="/login" className="font-medium text-accent-text hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
