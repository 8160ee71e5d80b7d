import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouter } from '@tanstack/react-router';
import {
  Bot,
  Check,
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
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { WorkspaceName } from '@shared/schemas/entities';
import { api } from '../../lib/api-client';
import { signOut } from '../../lib/auth';
import { useMember, useWorkspaceId } from '../../lib/queries/session';
import { useAuthStore } from '../../stores/auth-store';
import { Logo } from '../logo';
import { Avatar } from '../ui/avatar';
import { Button } from '../ui/button';
import { Dialog, DialogContent } from '../ui/dialog';
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
import { ThemeToggle } from './theme-toggle';

const nav = [
  { to: '/live-chat', label: 'Live chat', icon: MessagesSquare, search: { tab: 'closed' as const } },
  { to: '/audience', label: 'Audience', icon: Users },
  { to: '/campaigns', label: 'Campaigns', icon: Megaphone },
  { to: '/automation', label: 'Automation', icon: Bot },
  { to: '/templates', label: 'Templates', icon: FileText },
  { to: '/settings', label: 'Settings', icon: Settings },
] as const;

/** The signed-in frame: sidebar (workspace switcher, areas, member menu) and the screen. */
export function AppShell() {
  return (
    <div className="flex h-full min-h-0 bg-bg">
      <aside className="flex w-[232px] shrink-0 flex-col border-r border-border bg-surface" aria-label="Sidebar">
        <div className="flex h-12 items-center px-4">
          <Logo />
        </div>
        <div className="px-2 pb-2">
          <WorkspaceSwitcher />
        </div>
        <nav aria-label="Main" className="flex flex-1 flex-col gap-0.5 px-2 py-2">
          {nav.map((item) => (
            <Link
              key={item.to}
              to={item.to}
              search={'search' in item ? item.search : undefined}
              className="flex h-8 items-center gap-2.5 rounded-md px-2.5 text-[13px] font-medium text-fg-muted transition-colors hover:bg-muted hover:text-fg data-[status=active]:bg-accent-soft data-[status=active]:text-accent-text"
              activeOptions={{ includeSearch: false }}
            >
              <item.icon className="size-4" aria-hidden />
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="flex items-center gap-1 border-t border-border p-2">
          <MemberMenu />
          <ThemeToggle />
        </div>
      </aside>
      <main className="flex min-w-0 flex-1 flex-col overflow-y-auto" id="main">
        <Outlet />
      </main>
    </div>
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
            className="flex h-10 w-full items-center gap-2.5 rounded-lg border border-border bg-bg px-2.5 text-left transition-colors hover:bg-muted"
            aria-label={`Workspace: ${current?.name ?? 'unknown'}. Switch workspace`}
          >
            <span className="flex size-6 shrink-0 items-center justify-center rounded-md bg-accent text-[11px] font-bold text-accent-fg">
              {(current?.name ?? '?').slice(0, 1).toUpperCase()}
            </span>
            <span className="min-w-0 flex-1">
              <span className="block truncate text-[13px] font-medium text-fg">{current?.name ?? 'Workspace'}</span>
              <span className="block text-[11px] text-fg-subtle capitalize">{me.role}</span>
            </span>
            <ChevronsUpDown className="size-3.5 text-fg-subtle" aria-hidden />
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
      <CreateWorkspaceDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}

const CreateWorkspaceForm = z.object({ name: WorkspaceName });

function CreateWorkspaceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
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
      onOpenChange(false);
      form.reset();
      await navigate({ to: '/settings' });
    },
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="New workspace"
        description="A separate team space with its own numbers, contacts and members. You will be its admin."
        footer={
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" form="create-workspace" loading={create.isPending}>
              Create workspace
            </Button>
          </>
        }
      >
        <form id="create-workspace" noValidate onSubmit={form.handleSubmit((v) => create.mutate(v.name))}>
          <FormField label="Workspace name" error={form.formState.errors.name?.message}>
            <Input autoFocus placeholder="Acme Support" {...form.register('name')} />
          </FormField>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function MemberMenu() {
  const user = useAuthStore((s) => s.user);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const name = user?.displayName || user?.email || 'Signed in';
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          className="flex h-10 min-w-0 flex-1 items-center gap-2 rounded-md px-1.5 text-left transition-colors hover:bg-muted"
          aria-label={`Account: ${name}`}
        >
          <Avatar name={name} src={user?.photoURL} />
          <span className="min-w-0 flex-1">
            <span className="block truncate text-[13px] font-medium text-fg">{user?.displayName || 'No name set'}</span>
            <span className="block truncate text-[11px] text-fg-subtle">{user?.email}</span>
          </span>
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent side="top" align="start" className="w-56">
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
