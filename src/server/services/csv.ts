/**
 * CSV writing (RFC 4180): a field with a comma, a quote or a line break is quoted, quotes doubled; lines end
 * with CRLF. A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is kept as text with a
 * leading apostrophe (OWASP's CSV injection advice). csv-stringify (the csv project, as csv-parse which the import
 * uses) is not installed here: the lead is asked in the issue-19 setup report whether to add it.
 */
export function csvField(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const safe = /^[=+\-@\t\r]/.test(s) && !/^[+-]?\d+(\.\d+)?$/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
