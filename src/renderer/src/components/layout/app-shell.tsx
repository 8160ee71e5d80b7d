import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouter } from '@tanstack/react-router';
import {
  Bot,
  Check,
  KeyRound,
  ChevronsUpDown,
  FileText,
  LogOut,
  Megaphone,
  MessagesSquare,
  Plus,
  Settings,
  UserRound,
  Users,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { WorkspaceName } from '@shared/schemas/entities';
import { api } from '../../lib/api-client';
import { signOut } from '../../lib/auth';
import { useDesktopAppInfo } from '../../lib/queries/desktop-app-info';
import { useMember, useWorkspaceId } from '../../lib/queries/session';
import { useAuthStore } from '../../stores/auth-store';
import { InsideMain } from '../error-screens';
import { Logo } from '../logo';
import { Avatar } from '../ui/avatar';
import { FormDialog } from '../ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';
import { FormField } from '../ui/form-field';
import { Input } from '../ui/input';
import { Tooltip } from '../ui/tooltip';
import { ThemeToggle } from './theme-toggle';
import { OfflineBanner } from './offline-banner';

const nav = [
  { to: '/live-chat', label: 'Live chat', icon: MessagesSquare, search: { tab: 'closed' as const } },
  { to: '/audience', label: 'Audience', icon: Users },
  { to: '/campaigns', label: 'Campaigns', icon: Megaphone },
  { to: '/automation', label: 'Automation', icon: Bot },
  { to: '/templates', label: 'Templates', icon: FileText },
  { to: '/settings', label: 'Settings', icon: Settings },
] as const;

/**
 * The signed-in frame: sidebar (workspace switcher, areas, member menu) and the screen. Below 1280 px (`xl`) the
 * sidebar shrinks to its icons (labels move into tooltips and stay the links' accessible names), so the panes
 * beside it keep room at 1024 px.
 */
export function AppShell({ navBadges = {}, tools }: {
  /** A count beside a navigation entry (live chat: unread conversations), keyed by the entry's path. */
  navBadges?: Partial<Record<string, number>>;
  /** Buttons under the navigation (the quick switcher and the shortcut sheet). */
  tools?: ReactNode;
} = {}) {
  return (
    <div className="flex h-full min-h-0 bg-bg">
      <SkipLink />
      <aside className="flex w-14 shrink-0 flex-col border-r border-border bg-surface xl:w-[232px]" aria-label="Sidebar">
        <div className="flex h-12 items-center justify-center px-2 xl:justify-start xl:px-4">
          <Logo nameClassName="hidden xl:inline" />
        </div>
        <div className="px-2 pb-2">
          <WorkspaceSwitcher />
        </div>
        <nav aria-label="Main" className="flex flex-1 flex-col gap-0.5 px-2 py-2">
          {nav.map((item) => {
            const badge = navBadges[item.to] ?? 0;
            return (
              <Tooltip key={item.to} content={badge > 0 ? `${item.label} (${badge} unread)` : item.label} className="xl:hidden">
                <Link
                  to={item.to}
                  search={'search' in item ? item.search : undefined}
                  className="relative flex h-8 items-center justify-center gap-2.5 rounded-md text-[13px] font-medium text-fg-muted transition-colors hover:bg-muted hover:text-fg data-[status=active]:bg-accent-soft data-[status=active]:text-accent-text xl:justify-start xl:px-2.5"
                  activeOptions={{ includeSearch: false }}
                >
                  <item.icon className="size-4 shrink-0" aria-hidden />
                  <span className="sr-only xl:not-sr-only">{item.label}</span>
                  {badge > 0 && (
                    <span
                      data-testid={`nav-badge-${item.label}`}
                      className="absolute -top-1 -right-1 min-w-4 rounded-full bg-accent px-1 text-center text-[10px] leading-4 font-semibold text-accent-fg tabular-nums xl:static xl:ml-auto xl:min-w-5 xl:text-[11px] xl:leading-5"
                    >
                      <span aria-hidden>{badge > 99 ? '99+' : badge}</span>
                      <span className="sr-only">, {badge} unread</span>
                    </span>
                  )}
                </Link>
              </Tooltip>
            );
          })}
          {tools && <div className="mt-auto flex flex-col gap-0.5 border-t border-border pt-2">{tools}</div>}
        </nav>
        <div className="flex flex-col items-center gap-1 border-t border-border p-2 xl:flex-row">
          <MemberMenu />
          <ThemeToggle />
        </div>
      </aside>
      <main className="flex min-w-0 flex-1 flex-col overflow-y-auto" id="main" tabIndex={-1}>
        <OfflineBanner />
        <InsideMain.Provider value={true}>
          <Outlet />
        </InsideMain.Provider>
      </main>
    </div>
  );
}

/** First Tab stop of every signed-in screen: jumps past the sidebar. Visible only while focused. */
function SkipLink() {
  return (
    <a
      href="#main"
      onClick={(e) => {
        // Hash history (desktop) must not see the fragment as a route; move focus by hand.
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}
      className="sr-only z-50 rounded-md bg-surface px-3 py-2 text-[13px] font-medium text-fg shadow-md focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      Skip to main content
    </a>
  );
}

function WorkspaceSwitcher() {
  const me = useMember();
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const router = useRouter();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const current = me.Workspaces.find((w) => w.id === workspaceId);

  const switchTo = useMutation({
    mutationFn: (id: string) => api('patchMe', { body: { currentWorkspaceId: id } }),
    onSuccess: async (next) => {
      useAuthStore.getState().setMember(next);
      queryClient.setQueryData(['me'], next);
      // Everything cached belongs to the old workspace's view of the world: refetch it all.
      await queryClient.invalidateQueries();
      await router.invalidate();
      await navigate({ to: '/live-chat', search: { tab: 'closed' } });
    },
  });

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <button
            type="button"
            title={current?.name}
            className="flex h-10 w-full items-center justify-center gap-2.5 rounded-lg border border-border bg-bg text-left transition-colors hover:bg-muted xl:justify-start xl:px-2.5"
          >
            <span
              className="flex size-6 shrink-0 items-center justify-center rounded-md bg-accent text-[11px] font-bold text-accent-fg"
              aria-hidden
            >
              {(current?.name ?? '?').slice(0, 1).toUpperCase()}
            </span>
            {/* The visible name is the start of the accessible name (WCAG 2.5.3); the purpose follows for screen readers. */}
            <span className="sr-only min-w-0 flex-1 xl:not-sr-only">
              <span className="block truncate text-[13px] font-medium text-fg">{current?.name ?? 'Workspace'}</span>
              <span className="block text-[11px] text-fg-subtle capitalize">{me.role}</span>
            </span>
            <span className="sr-only">, switch workspace</span>
            <ChevronsUpDown className="hidden size-3.5 shrink-0 text-fg-subtle xl:block" aria-hidden />
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-60">
          <DropdownMenuLabel>Workspaces</DropdownMenuLabel>
          {me.Workspaces.map((w) => (
            <DropdownMenuItem
              key={w.id}
              onSelect={() => {
                if (w.id !== workspaceId) switchTo.mutate(w.id);
              }}
            >
              <span className="flex-1 truncate">{w.name}</span>
              {w.id === workspaceId && <Check className="text-accent!" aria-label="Current workspace" />}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <Plus /> New workspace
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {creating && <CreateWorkspaceDialog onClose={() => setCreating(false)} />}
    </>
  );
}

const CreateWorkspaceForm = z.object({ name: WorkspaceName });

function CreateWorkspaceDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const navigate = useNavigate();
  const form = useForm<z.input<typeof CreateWorkspaceForm>>({ resolver: zodResolver(CreateWorkspaceForm), defaultValues: { name: '' } });
  const create = useMutation({
    mutationFn: (name: string) => api('createWorkspace', { body: { name } }),
    onSuccess: async () => {
      // The server switches the creator to the new workspace.
      const me = await api('getMe');
      useAuthStore.getState().setMember(me);
      queryClient.setQueryData(['me'], me);
      await queryClient.invalidateQueries();
      await router.invalidate();
      onClose();
      await navigate({ to: '/settings' });
    },
  });
  return (
    <FormDialog
      title="New workspace"
      description="A separate team space with its own numbers, contacts and members. You will be its admin."
      submitLabel="Create workspace"
      pending={create.isPending}
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => create.mutate(v.name))}
    >
      <FormField label="Workspace name" error={form.formState.errors.name?.message}>
        <Input autoFocus placeholder="Acme Support" {...form.register('name')} />
      </FormField>
    </FormDialog>
  );
}

function MemberMenu() {
  const user = useAuthStore((s) => s.user);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const name = user?.displayName || user?.email || 'Signed in';
  const sessionNotice = useDesktopAppInfo().data?.sessionNotice ?? null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          title={name}
          className="flex h-10 min-w-0 items-center gap-2 rounded-md px-1.5 text-left transition-colors hover:bg-muted xl:flex-1"
        >
          <Avatar name={name} src={user?.photoURL} />
          <span className="sr-only min-w-0 flex-1 xl:not-sr-only">
            <span className="block truncate text-[13px] font-medium text-fg">{user?.displayName || 'No name set'}</span>
            <span className="block truncate text-[11px] text-fg-subtle">{user?.email}</span>
          </span>
          <span className="sr-only">, account menu</span>
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent side="top" align="start" className="w-56">
        {sessionNotice && (
          <>
            <DropdownMenuLabel className="flex items-start gap-2 text-xs font-normal text-warning-text" role="note">
              <KeyRound className="mt-0.5 size-3.5 shrink-0" aria-hidden /> {sessionNotice}
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
          </>
        )}
        <DropdownMenuItem onSelect={() => void navigate({ to: '/settings/profile' })}>
          <UserRound /> Profile
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          onSelect={async () => {
            await signOut(queryClient);
            await navigate({ to: '/login' });
          }}
        >
          <LogOut /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
