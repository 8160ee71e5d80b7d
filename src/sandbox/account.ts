/**
 * The WhatsApp Business account the sandbox serves out of the box. Its ids are shaped like Meta's (numeric
 * strings) so code paths that parse or display them behave as in production.
 */
export interface SandboxAccount {
  /** E.164, accepted by libphonenumber-js/mobile as a valid mobile number (the account form checks that). */
  phoneNumber: string;
  phoneNumberId: string;
  wabaAccountId: string;
  appId: string;
  /** Bearer token the sandbox accepts for this account. */
  token: string;
  /** Shown as `verified_name` on the phone-number lookup. */
  verifiedName: string;
}

/** 650-555-01xx is a range reserved for fiction, yet libphonenumber treats it as a valid US mobile number. */
export const sandboxAccount: SandboxAccount = Object.freeze({
  phoneNumber: '+16505550100',
  phoneNumberId: '106540352242922',
  wabaAccountId: '102290129340398',
  appId: '1440339170324751',
  token: 'EAAsandbox0parley0local0token0not0a0secret',
  verifiedName: 'Parley Sandbox',
});

/** Digits only, as Meta writes phone numbers in wa_id, `from` and `display_phone_number` metadata. */
export const digits = (phone: string): string => phone.replace(/\D/g, '');

/** "+1 650-555-0100": how the Graph API formats `display_phone_number` on a phone-number lookup. */
export function displayPhoneNumber(phone: string): string {
  const d = digits(phone);
  if (d.length === 11 && d.startsWith('1')) return `+1 ${d.slice(1, 4)}-${d.slice(4, 7)}-${d.slice(7)}`;
  return `+${d}`;
}
