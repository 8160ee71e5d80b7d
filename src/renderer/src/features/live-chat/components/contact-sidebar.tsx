/** The contact panel beside a conversation: who it is, opt-out, attributes and other conversations. */
import { BellOff, Mail, MapPin, Phone, X } from 'lucide-react';
import type { Contact } from '@shared/schemas/entities';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { ContactPhone } from '../../../components/ui/contact-phone';
import { Button } from '../../../components/ui/button';
import { TruncatedText } from '../../../components/ui/tooltip';
import { cn } from '../../../lib/cn';
import { useOfflineReason } from '../../../lib/connectivity';
import { usePatchContact } from '../../../lib/queries/contacts';
import { ContactAttributes } from './contact-attributes';
import { ContactOptOutCause } from './contact-opt-out-cause';
import { OtherConversations } from './contact-other-conversations';
import { contactLabel } from '@shared/contact-label';

/** The contact's details and attributes (editable by format) and its other conversations. */
export function ContactSidebar({
  contact,
  conversationId,
  workspaceId,
  onClose,
  className,
}: {
  contact: Contact;
  conversationId: string;
  workspaceId: string;
  onClose?: () => void;
  className?: string;
}) {
  const patch = usePatchContact(workspaceId);
  const offline = useOfflineReason();

  return (
    <aside aria-label="Contact" className={cn('flex h-full w-80 shrink-0 flex-col overflow-y-auto border-l border-border bg-surface', className)}>
      <div className="flex items-center justify-between px-4 pt-3">
        <h2 className="text-[13px] font-semibold text-fg-muted">Contact</h2>
        {onClose && (
          <Button variant="ghost" size="icon-sm" onClick={onClose} aria-label="Hide contact details">
            <X />
          </Button>
        )}
      </div>
      <div className="flex flex-col items-center gap-2 px-4 pt-2 pb-4 text-center">
        <Avatar name={contact.name ?? (contact.username || contact.phoneNumber?.slice(-2) || '?')} className="size-16 text-lg" />
        <div className="w-full min-w-0">
          <TruncatedText as="p" text={contactLabel(contact)} className="text-[15px] font-semibold text-fg" />
          {contact.tags.length > 0 && (
            <div className="mt-1 flex flex-wrap justify-center gap-1">
              {contact.tags.map((t) => (
                <Badge key={t}>{t}</Badge>
              ))}
            </div>
          )}
        </div>
      </div>
      <dl className="flex flex-col gap-2 border-t border-border px-4 py-3 text-[13px]">
        <div className="flex items-center gap-2">
          <dt>
            <Phone className="size-4 text-fg-subtle" aria-label="Phone number" />
          </dt>
          <dd>
            <ContactPhone contact={contact} />
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt>
            <Mail className="size-4 text-fg-subtle" aria-label="E-mail" />
          </dt>
          <dd className={contact.email ? '' : 'text-fg-subtle'}>{contact.email ?? 'No e-mail'}</dd>
        </div>
        {(contact.city || contact.country) && (
          <div className="flex items-center gap-2">
            <dt>
              <MapPin className="size-4 text-fg-subtle" aria-label="Location" />
            </dt>
            <dd>{[contact.city, contact.country].filter(Boolean).join(', ')}</dd>
          </div>
        )}
      </dl>
      {/* Opt-out: campaigns skip an opted-out contact; live chat still works; an agent can reverse it. */}
      <div className="flex items-start justify-between gap-2 border-t border-border px-4 py-3 text-[13px]">
        <div>
          <span className="flex items-center gap-2">
            <BellOff className="size-4 text-fg-subtle" aria-hidden />
            {contact.optedOut ? <Badge tone="amber">Opted out of campaigns</Badge> : <span className="text-fg-muted">Receives campaigns</span>}
          </span>
          {contact.optedOut && contact.optOut && <ContactOptOutCause optOut={contact.optOut} />}
        </div>
        <Button
          variant="link"
          size="sm"
          disabled={!!offline || patch.isPending}
          title={offline ?? undefined}
          onClick={() => patch.mutate({ contactId: contact.id, body: { optedOut: !contact.optedOut } })}
        >
          {contact.optedOut ? 'Opt back in' : 'Opt out'}
        </Button>
      </div>
      {/* Meta's consent, apart from Parley's opt-out: marketing campaigns skip a stopped contact. */}
      {contact.marketingConsent?.value === 'stopped' && (
        <div className="border-t border-border px-4 py-3 text-[13px]">
          <Badge tone="amber">
            {contact.marketingConsent.source === 'user_preferences' ? 'Stopped marketing messages in WhatsApp' : 'WhatsApp refused marketing: stopped by the customer (131050)'}
          </Badge>
          <p className="mt-1 text-fg-muted">Marketing campaigns skip this contact; utility templates and live chat still go.</p>
        </div>
      )}

      <ContactAttributes contact={contact} workspaceId={workspaceId} patch={patch} offline={offline} />

      <OtherConversations contactId={contact.id} conversationId={conversationId} />
    </aside>
  );
}
