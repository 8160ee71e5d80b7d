import { randomUUID } from 'node:crypto';

/**
 * A UUID whose first 48 bits are the time in ms (the UUIDv7 layout): new contacts land at the right edge of the
 * primary-key index instead of at random pages, which keeps a million-row import's index writes cheap.
 */
export function timeOrderedId(): string {
  const ts = Date.now().toString(16).padStart(12, '0');
  const r = randomUUID();
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${r.slice(15)}`;
}
