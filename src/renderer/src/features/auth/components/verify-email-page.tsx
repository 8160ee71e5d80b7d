import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { AuthCard } from '../../../components/layout/guest-layout';
import { Button } from '../../../components/ui/button';
import { authErrorMessage, reloadUser, sendVerificationEmail, signOut } from '../../../lib/auth';
import { landingHref, safeRedirect } from '../../../lib/paths';
import { useAuthStore } from '../../../stores/auth-store';

/** How often to ask the identity service whether the address was verified (in another tab or on the phone). */
export const VERIFY_POLL_MS = 3000;

/** `/verify-email-address`: send or resend the e-mail; notices the verification without a reload. */
export function VerifyEmailPage() {
  const user = useAuthStore((s) => s.user);
  const { redirect } = useSearch({ from: '/guest/verify-email-address' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!user || user.emailVerified) return;
    const timer = setInterval(() => {
      reloadUser()
        .then((u) => {
          if (u?.emailVerified) {
            toast.success('Email verified');
            void navigate({ href: safeRedirect(redirect) ?? landingHref(), replace: true });
          }
        })
        .catch(() => undefined); // offline for a moment: the next tick asks again
    }, VERIFY_POLL_MS);
    return () => clearInterval(timer);
  }, [user, redirect, navigate]);

  if (!user) {
    return (
      <AuthCard title="Verify your email" description="Sign in first, then we can send you a verification email.">
        <Button asChild size="lg" className="w-full">
          <Link to="/login">Sign in</Link>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Verify your email">
      <div className="flex flex-col items-center text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          <MailCheck className="size-6" aria-hidden />
        </div>
        <p className="mt-4 text-[13px] text-fg-muted">
          We sent a verification link to <span className="font-medium text-fg">{user.email}</span>. Open it to finish
          setting up your account; this page continues by itself once you have.
        </p>
        <div className="mt-6 flex w-full flex-col gap-2">
          <Button
            variant="secondary"
            size="lg"
            loading={sending}
            onClick={async () => {
              setSending(true);
              try {
                await sendVerificationEmail();
                toast.success(`Verification email sent to ${user.email}`);
              } catch (err) {
                toast.error(authErrorMessage(err));
              } finally {
                setSending(false);
              }
            }}
          >
            Resend verification email
          </Button>
          <Button
            variant="ghost"
            onClick={async () => {
              await signOut(queryClient);
              await navigate({ to: '/login' });
            }}
          >
            Use another account
          </Button>
        </div>
      </div>
    </AuthCard>
  );
}
