import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { MailWarning, UsersRound } from 'lucide-react';
import { AuthCard, GuestFrame } from '../../../components/layout/guest-layout';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { isApiError } from '../../../lib/api-client';
import { signOut } from '../../../lib/auth';
import { isSignedIn, useAuthStore } from '../../../stores/auth-store';
import { useAcceptInvite } from '../api/accept-invite';
import { useInvite } from '../api/validate-invite';

/**
 * `/invite/{inviteId}`: looks the invitation up; a new invitee signs up (e-mail and password), one who has an
 * account signs in and accepts (POST /invitee/accept). `inviteId` is the invitation's token from the e-mailed
 * link; the look-up answers only what this page shows, never the token.
 */
export function InvitePage() {
  const { inviteId } = useParams({ from: '/invite/$inviteId' });
  const invite = useInvite(inviteId);
  const user = useAuthStore((s) => s.user);
  const signedIn = useAuthStore(isSignedIn);
  const accept = useAcceptInvite();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const here = `/invite/${encodeURIComponent(inviteId)}`;

  let body: React.ReactNode;
  if (invite.isPending) {
    body = (
      <AuthCard title="Invitation">
        <div role="status" aria-label="Loading invitation" className="flex flex-col gap-2">
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="mt-4 h-10 w-full" />
        </div>
      </AuthCard>
    );
  } else if (invite.isError) {
    const gone = isApiError(invite.error, 404);
    const used = isApiError(invite.error, 409);
    body = (
      <AuthCard title={used ? 'Invitation already used' : gone ? 'Invitation not found' : 'Invitation unavailable'}>
        <div className="flex flex-col items-center gap-3 text-center">
          <MailWarning className="size-8 text-fg-subtle" aria-hidden />
          <p className="text-[13px] text-fg-muted">{invite.error.message}</p>
          <Button asChild variant="secondary" className="mt-2 w-full">
            <Link to="/login">Go to sign in</Link>
          </Button>
        </div>
      </AuthCard>
    );
  } else {
    const inv = invite.data;
    const sameUser = !!user?.email && user.email.toLowerCase() === inv.email.toLowerCase();
    let action: React.ReactNode;
    if (signedIn && sameUser) {
      action = (
        <Button
          size="lg"
          className="w-full"
          loading={accept.isPending}
          onClick={() =>
            accept.mutate(inviteId, {
              onSuccess: () => void navigate({ to: '/live-chat', search: { tab: 'closed' } }),
            })
          }
        >
          Accept invitation
        </Button>
      );
    } else if (user && !sameUser) {
      action = (
        <div className="flex flex-col gap-2">
          <p className="text-[13px] text-fg-muted">
            You are signed in as <span className="font-medium text-fg">{user.email}</span>, but this invitation is for{' '}
            <span className="font-medium text-fg">{inv.email}</span>.
          </p>
          <Button variant="secondary" size="lg" onClick={() => void signOut(queryClient)}>
            Sign out
          </Button>
        </div>
      );
    } else if (inv.hasAccount) {
      action = (
        <Button asChild size="lg" className="w-full">
          <Link to="/login" search={{ redirect: here }}>
            Sign in to accept
          </Link>
        </Button>
      );
    } else {
      action = (
        <Button asChild size="lg" className="w-full">
          <Link to="/signup" search={{ email: inv.email, token: inviteId }}>
            Create your account
          </Link>
        </Button>
      );
    }
    body = (
      <AuthCard title={`Join ${inv.workspaceName}`}>
        <div className="flex flex-col gap-5">
          <div className="flex items-center gap-3 rounded-lg border border-border bg-subtle px-3 py-3">
            <div className="flex size-9 items-center justify-center rounded-md bg-accent text-accent-fg">
              <UsersRound className="size-4" aria-hidden />
            </div>
            <div className="min-w-0 flex-1 text-[13px]">
              <p className="text-fg">
                You have been invited to <span className="font-medium">{inv.workspaceName}</span>
              </p>
              <p className="truncate text-fg-muted">{inv.email}</p>
            </div>
            <Badge tone={inv.role === 'admin' ? 'blue' : 'neutral'} className="capitalize">
              {inv.role}
            </Badge>
          </div>
          {action}
        </div>
      </AuthCard>
    );
  }
  return <GuestFrame>{body}</GuestFrame>;
}
