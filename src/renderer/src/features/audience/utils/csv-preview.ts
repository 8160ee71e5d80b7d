/**
 * Reads the first rows of a CSV in the browser for the import wizard's preview and column mapping. Only the
 * start of the file is read (a contact list can be hundreds of megabytes); the server parses the whole file.
 */
import { parse } from 'csv-parse/browser/esm/sync';

export interface CsvPreview {
  columns: string[];
  rows: string[][];
}

/** Bytes read from the start of the file: plenty for a header and the preview rows. */
export const PREVIEW_BYTES = 256 * 1024;
export const PREVIEW_ROWS = 10;

export function parseCsvPreview(text: string, maxRows = PREVIEW_ROWS, complete = true): CsvPreview {
  // A cut-off file may end inside a row (or a quoted field): drop the incomplete last line.
  const body = complete ? text : text.slice(0, Math.max(text.lastIndexOf('\n'), 0));
  const records = parse(body, {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    trim: true,
    to_line: maxRows + 1,
  }) as string[][];
  const [header = [], ...rows] = records;
  const columns = header.map((h, i) => h || `Column ${i + 1}`);
  return { columns, rows: rows.slice(0, maxRows) };
}

export async function readCsvPreview(file: Blob, maxRows = PREVIEW_ROWS): Promise<CsvPreview> {
  const complete = file.size <= PREVIEW_BYTES;
  const text = await file.slice(0, PREVIEW_BYTES).text();
  return parseCsvPreview(text, maxRows, complete);
}
