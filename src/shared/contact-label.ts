/**
 * How a contact is named on screen when WhatsApp withholds its phone number: a customer with a username is known
 * by it (`@maria`); with neither, "Phone hidden" says why no number shows.
 */
export const phoneHiddenLabel = 'Phone hidden';

interface Addressable {
  name?: string | null;
  phoneNumber: string | null;
  username?: string | null;
}

/** The phone number, else `@username`, else "Phone hidden". */
export function contactAddress(c: Addressable): string {
  if (c.phoneNumber) return c.phoneNumber;
  return c.username ? `@${c.username}` : phoneHiddenLabel;
}

/** The name, else what contactAddress answers. */
export function contactLabel(c: Addressable): string {
  return c.name?.trim() || contactAddress(c);
}
