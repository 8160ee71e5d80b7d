/**
 * Whether Meta can deliver webhooks to an address: its callback must be HTTPS on a name or address the internet
 * reaches. Used to warn an admin whose server shows Meta a local or plain-HTTP callback (the `npm start` default
 * `http://127.0.0.1:4000/…`), which Meta's verification can never reach.
 */
import ipaddr from 'ipaddr.js';

const localNames = /(^|\.)(localhost|local|internal|lan|home|test|example|invalid)$/i;

/** Why Meta cannot reach `url` as a webhook callback, or null when it looks like a public HTTPS address. */
export function publicCallbackProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'This is not a web address.';
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const range = ipaddr.process(host).range();
    if (range === 'loopback') return `${host} is this machine only: Meta cannot reach it from the internet.`;
    if (range !== 'unicast') return `${host} is not a public address: Meta cannot reach it from the internet.`;
  } else if (!host.includes('.') || localNames.test(host)) {
    return `${host} is a local name: Meta cannot reach it from the internet.`;
  }
  if (u.protocol !== 'https:') return 'Meta calls webhooks over HTTPS only; this address is plain HTTP.';
  return null;
}
