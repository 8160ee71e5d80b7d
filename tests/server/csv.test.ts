/** The one CSV writer (src/server/services/csv.ts, csv-stringify): contacts export and campaign logs both use it. */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvRow, csvRows } from '../../src/server/services/csv';

describe('csvRow', () => {
  it('keeps a formula cell as text with a leading apostrophe, but not a phone number or a negative number', () => {
    expect(csvRow(['=HYPERLINK("http://evil")', '@SUM(A1)', '+cmd', '-x', '\tTab'])).toBe(`"'=HYPERLINK(""http://evil"")",'@SUM(A1),'+cmd,'-x,'\tTab\r\n`);
    expect(csvRow(['+14155550101', '-3', -5, 2.5])).toBe('+14155550101,-3,-5,2.5\r\n');
  });

  it('quotes a cell with a comma, a quote or a line break, doubling quotes, and reads back the same', () => {
    const cells = ['Turing, Alan', 'Ada "Countess" Lovelace', 'gold\nline two', 'cr\rhere', 'plain'];
    const line = csvRow(cells);
    expect(line).toBe('"Turing, Alan","Ada ""Countess"" Lovelace","gold\nline two","cr\rhere",plain\r\n');
    expect(parse(line)).toEqual([cells]);
  });

  it('writes null and undefined as empty, booleans, dates and objects as text; several rows end with CRLF', () => {
    expect(csvRow([null, undefined, true, new Date('2026-01-02T03:04:05Z'), { a: 1 }])).toBe(',,true,2026-01-02T03:04:05.000Z,"{""a"":1}"\r\n');
    expect(csvRows([['a', 1], ['b', 2]])).toBe('a,1\r\nb,2\r\n');
    expect(csvRows([])).toBe('');
  });
});
