import { Link } from '@tanstack/react-router';
import { Blocks, Bot, ChevronRight, Coins, Filter, Megaphone, MessageCircle, UserRound, Users } from 'lucide-react';
import { SettingsPage } from './settings-page';

const sections = [
  { to: '/settings/profile', title: 'Profile', text: 'Your name and photo.', icon: UserRound },
  { to: '/settings/whatsapp', title: 'WhatsApp accounts', text: 'Numbers your team chats and sends from.', icon: MessageCircle },
  { to: '/settings/segments', title: 'Segments', text: 'Saved groups of contacts for campaigns.', icon: Filter },
  { to: '/settings/members', title: 'Members', text: 'Teammates, roles and invitations.', icon: Users },
  { to: '/settings/attributes', title: 'Attributes', text: 'Fields of your own on contacts.', icon: Blocks },
  { to: '/settings/campaigns', title: 'Campaigns', text: 'Opt-out keywords, confirmation and time zone.', icon: Megaphone },
  { to: '/settings/bots', title: 'Bots', text: 'The sender of the e-mails bots send.', icon: Bot },
  { to: '/settings/pricing', title: 'Pricing', text: "Meta's rate card, for campaigns' estimated cost.", icon: Coins },
] as const;

/** `/settings` */
export function SettingsIndexPage() {
  return (
    <SettingsPage title="Settings" description="Your profile and how this workspace is set up.">
      <div className="grid gap-3 sm:grid-cols-2">
        {sections.map((s) => (
          <Link
            key={s.to}
            to={s.to}
            className="group flex items-center gap-4 rounded-xl border border-border bg-surface p-4 transition-colors hover:border-border-strong hover:bg-subtle"
          >
            <span className="flex size-9 items-center justify-center rounded-lg bg-accent-soft text-accent-text">
              <s.icon className="size-4" aria-hidden />
            </span>
            <span className="min-w-0 flex-1">
              <span className="block text-sm font-medium text-fg">{s.title}</span>
              <span className="block text-[13px] text-fg-muted">{s.text}</span>
            </span>
            <ChevronRight className="size-4 text-fg-subtle transition-transform group-hover:translate-x-0.5" aria-hidden />
          </Link>
        ))}
      </div>
    </SettingsPage>
  );
}
