/**
 * Addition: variables of a canned reply, filled from the conversation's contact. `{{name}}`,
 * `{{phoneNumber}}`, `{{email}}`, `{{country}}`, `{{city}}` name the contact's own fields; any other name is one
 * of the contact's attributes (matched by name, case and spaces ignored). A variable the contact has no value
 * for stays as written and is reported, so the composer can warn before anything is sent.
 */

const variable = () => /\{\{\s*([A-Za-z][A-Za-z0-9_ -]*?)\s*\}\}/g;

export interface CannedReplyContact {
  name: string | null;
  phoneNumber?: string | null;
  email?: string | null;
  country?: string | null;
  city?: string | null;
  attributes?: Readonly<Record<string, string | number | boolean | null>>;
}

const fields = ['name', 'phoneNumber', 'email', 'country', 'city'] as const;
const fold = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');

/** The distinct variable names of a reply, in order of first appearance. */
export function cannedReplyVariables(text: string): string[] {
  return [...new Set([...text.matchAll(variable())].map((m) => m[1]))];
}

function valueOf(name: string, contact: CannedReplyContact): string | null {
  const field = fields.find((f) => fold(f) === fold(name));
  const raw = field ? contact[field] : Object.entries(contact.attributes ?? {}).find(([k]) => fold(k) === fold(name))?.[1];
  if (raw === null || raw === undefined) return null;
  const text = String(raw).trim();
  return text === '' ? null : text;
}

/** The reply with every known variable filled; `missing` lists the variables left as written (empty or unknown). */
export function fillCannedReply(text: string, contact: CannedReplyContact): { text: string; missing: string[] } {
  const missing = new Set<string>();
  const filled = text.replace(variable(), (whole, name: string) => {
    const value = valueOf(name, contact);
    if (value === null) {
      missing.add(name);
      return whole;
    }
    return value;
  });
  return { text: filled, missing: [...missing] };
}

/** The `@name` mentions of a note: member display names that follow an `@` (longest name first wins). */
export function mentionedMembers<M extends { id: string; name: string }>(text: string, members: readonly M[]): M[] {
  const byLength = [...members].filter((m) => m.name.trim()).sort((a, b) => b.name.length - a.name.length);
  const found = new Map<string, M>();
  const lower = text.toLowerCase();
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    if (at > 0 && /[\p{L}\p{N}_.]/u.test(lower[at - 1])) continue; // an e-mail address, not a mention
    const rest = lower.slice(at + 1);
    const m = byLength.find((x) => rest.startsWith(x.name.toLowerCase()) && !/[\p{L}\p{N}_]/u.test(rest[x.name.length] ?? ''));
    if (m) found.set(m.id, m);
  }
  return [...found.values()];
}
