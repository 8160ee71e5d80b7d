import { Link, Outlet } from '@tanstack/react-router';
import { Logo } from '../logo';
import { ThemeToggle } from './theme-toggle';

/** Centered card layout of the sign-in, sign-up and verification screens. */
export function GuestLayout() {
  return (
    <GuestFrame>
      <Outlet />
    </GuestFrame>
  );
}

/** The frame itself, also used by the public invitation screen. */
export function GuestFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-full flex-col bg-bg">
      <header className="flex items-center justify-between px-6 py-4">
        <Link to="/" aria-label="Parley home">
          <Logo />
        </Link>
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-[8vh] pb-16">
        <div className="w-full max-w-[400px]">{children}</div>
      </main>
    </div>
  );
}

/** Card with a heading used by the guest screens. */
export function AuthCard({ title, description, children }: { title: string; description?: React.ReactNode; children: React.ReactNode }) {
  return (
    <div className="rounded-xl border border-border bg-surface p-7 shadow-sm">
      <h1 className="text-xl font-semibold tracking-tight text-fg">{title}</h1>
      {description && <p className="mt-1.5 text-[13px] text-fg-muted">{description}</p>}
      <div className="mt-6">{children}</div>
    </div>
  );
}
