import { Link, Outlet } from '@tanstack/react-router';
import { Blocks, Bot, Coins, Filter, Megaphone, MessageCircle, MessageSquareText, UserRound, Users } from 'lucide-react';

const items = [
  { to: '/settings/profile', label: 'Profile', icon: UserRound },
  { to: '/settings/whatsapp', label: 'WhatsApp accounts', icon: MessageCircle },
  { to: '/settings/segments', label: 'Segments', icon: Filter },
  { to: '/settings/members', label: 'Members', icon: Users },
  { to: '/settings/attributes', label: 'Attributes', icon: Blocks },
  { to: '/settings/canned-replies', label: 'Canned replies', icon: MessageSquareText },
  { to: '/settings/campaigns', label: 'Campaigns', icon: Megaphone },
  { to: '/settings/bots', label: 'Bots', icon: Bot },
  { to: '/settings/pricing', label: 'Pricing', icon: Coins },
] as const;

/** Settings: a second column of sections beside the screen. */
export function SettingsLayout() {
  return (
    <div className="flex min-h-full">
      <nav aria-label="Settings" className="w-44 shrink-0 xl:w-52 border-r border-border bg-surface/60 px-2 py-4">
        <Link to="/settings" className="mb-2 block px-2.5 text-[11px] font-medium tracking-wide text-fg-subtle uppercase">
          Settings
        </Link>
        {items.map((i) => (
          <Link
            key={i.to}
            to={i.to}
            className="flex min-h-8 items-center gap-2.5 rounded-md px-2.5 py-1.5 text-[13px] leading-tight font-medium text-fg-muted hover:bg-muted hover:text-fg data-[status=active]:bg-muted data-[status=active]:text-fg"
          >
            <i.icon className="size-4 shrink-0" aria-hidden />
            {i.label}
          </Link>
        ))}
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <Outlet />
      </div>
    </div>
  );
}
