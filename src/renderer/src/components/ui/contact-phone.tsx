import { phoneHiddenLabel } from '@shared/contact-label';
import { Badge } from './badge';

/**
 * A contact's phone number, or, when WhatsApp withholds it, the customer's username with a "Phone hidden"
 * badge (they can still be answered: messages go to their WhatsApp user id).
 */
export function ContactPhone({ contact }: { contact: { phoneNumber: string | null; username?: string | null } }) {
  if (contact.phoneNumber) return <span className="font-mono text-[12.5px]">{contact.phoneNumber}</span>;
  return (
    <span className="inline-flex items-center gap-1.5">
      {contact.username && <span>@{contact.username}</span>}
      <Badge title="WhatsApp does not share this customer's phone number; they are reached by their WhatsApp user id">{phoneHiddenLabel}</Badge>
    </span>
  );
}
