/**
 * The one CSV writer for every file Parley hands out (contacts export, campaign logs, the import's report of
 * rejected rows): csv-stringify (the csv project, as csv-parse which the
 * import uses). RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled; lines end with
 * CRLF. `escape_formulas` keeps a cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) as text
 * with a leading apostrophe (OWASP's CSV injection advice); a plain number such as a phone number "+14155550101"
 * or "-3" is left as it is (a spreadsheet reads it as a number, not a formula).
 */
import { stringify, type Options } from 'csv-stringify/sync';

const plainNumber = /^[+-]?\d+(\.\d+)?$/;

const options: Options = {
  record_delimiter: 'windows',
  // Setting record_delimiter turns off quoting a lone \n or \r unless this is said.
  quote_record_delimiter: true,
  escape_formulas: true,
  cast: {
    string: (s) => (plainNumber.test(s) ? { value: s, escape_formulas: false } : s),
    boolean: (b) => String(b),
    object: (o) => JSON.stringify(o),
    date: (d) => d.toISOString(),
  },
};

/** One line of CSV, CRLF at the end. */
export function csvRow(values: readonly unknown[]): string {
  return stringify([values as unknown[]], options);
}

/** Several lines of CSV, each ending with CRLF. */
export function csvRows(rows: readonly (readonly unknown[])[]): string {
  return rows.length === 0 ? '' : stringify(rows as unknown[][], options);
}

/** A CSV file to stream to the client: its name, and its lines produced a page at a time. */
export interface CsvFile {
  fileName: string;
  lines: AsyncIterable<string>;
}
