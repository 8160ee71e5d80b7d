import { Link } from '@tanstack/react-router';
import { ArrowRight, Bot, FileText, Megaphone, MessagesSquare, Users } from 'lucide-react';
import { Logo } from '../../components/logo';
import { ThemeToggle } from '../../components/layout/theme-toggle';
import { Button } from '../../components/ui/button';
import { isSignedIn, useAuthStore } from '../../stores/auth-store';

const features = [
  { icon: MessagesSquare, title: 'Team inbox', text: 'Every WhatsApp conversation in one place: assign, reply, close.' },
  { icon: Megaphone, title: 'Campaigns', text: 'Send approved templates to a segment, once or on a schedule.' },
  { icon: Bot, title: 'Automation', text: 'Bots that answer, collect details and hand over to a person.' },
  { icon: Users, title: 'Audience', text: 'Contacts with your own attributes, CSV import and segments.' },
  { icon: FileText, title: 'Templates', text: 'Write, preview and submit message templates for review.' },
];

/** `/`: what Parley is, with the way in. */
export function LandingPage() {
  const signedIn = useAuthStore(isSignedIn);
  return (
    <div className="min-h-full bg-bg">
      <header className="mx-auto flex max-w-5xl items-center justify-between px-6 py-5">
        <Logo />
        <div className="flex items-center gap-2">
          <ThemeToggle />
          {signedIn ? (
            <Button asChild>
              <Link to="/live-chat" search={{ tab: 'closed' }}>
                Open inbox <ArrowRight />
              </Link>
            </Button>
          ) : (
            <>
              <Button variant="ghost" asChild>
                <Link to="/login">Sign in</Link>
              </Button>
              <Button asChild>
                <Link to="/signup">Create account</Link>
              </Button>
            </>
          )}
        </div>
      </header>
      <main>
      <section className="mx-auto max-w-5xl px-6 pt-16 pb-12">
        <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface px-3 py-1 text-xs font-medium text-fg-muted">
          <span className="size-1.5 rounded-full bg-accent" /> WhatsApp Business, for teams
        </p>
        <h1 className="mt-5 max-w-2xl text-4xl leading-tight font-semibold tracking-tight text-fg sm:text-5xl">
          One inbox for every customer conversation on WhatsApp.
        </h1>
        <p className="mt-4 max-w-xl text-base text-fg-muted">
          Parley gives your support and sales team a shared WhatsApp inbox, with campaigns, chatbots and an audience you
          own.
        </p>
        <div className="mt-8 flex gap-3">
          <Button size="lg" asChild>
            <Link to={signedIn ? '/live-chat' : '/signup'} search={signedIn ? { tab: 'closed' } : undefined}>
              {signedIn ? 'Open inbox' : 'Get started'} <ArrowRight />
            </Link>
          </Button>
        </div>
      </section>
      <section className="mx-auto grid max-w-5xl gap-3 px-6 pb-20 sm:grid-cols-2 lg:grid-cols-3">
        {features.map((f) => (
          <div key={f.title} className="rounded-xl border border-border bg-surface p-5">
            <f.icon className="size-5 text-accent" aria-hidden />
            <h2 className="mt-3 text-sm font-semibold text-fg">{f.title}</h2>
            <p className="mt-1 text-[13px] text-fg-muted">{f.text}</p>
          </div>
        ))}
      </section>
      </main>
    </div>
  );
}
