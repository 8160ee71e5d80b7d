/**
 * A record's own value by a key users name (attribute names, form and record keys, JSON paths). A plain object
 * also answers Object's built-ins ("constructor", "toString", "__proto__"), which are never values of ours.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string | number): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
