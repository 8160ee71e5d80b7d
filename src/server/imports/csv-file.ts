/**
 * Reading an uploaded CSV: what it is (encoding, delimiter, header) from its first bytes, then its records as
 * a stream (csv-parse), never the whole file in memory.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { parse, type Parser } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';

/** A problem with the file as a whole: the import cannot start (or the request is refused with this text). */
export class ImportFileError extends Error {}

export interface CsvInfo {
  encoding: 'utf8' | 'latin1';
  delimiter: string;
  header: string[];
  size: number;
}

/** The limit of the upload route; a file over it is refused here too (it could only come from elsewhere). */
export const maxImportBytes = 200 * 1024 * 1024;
/** A record longer than this is not a contact: the file is refused rather than held in memory. */
export const maxRecordBytes = 64 * 1024;
const sampleBytes = 64 * 1024;
const delimiters = [',', ';', '\t', '|'];

function isUtf8(buf: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

/** The delimiter that splits the header line most often, quotes respected. */
function detectDelimiter(firstLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const d of delimiters) {
    let count = 0;
    let quoted = false;
    for (const ch of firstLine) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) count++;
    }
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

export async function inspectCsv(path: string): Promise<CsvInfo> {
  let size: number;
  try {
    size = (await fsp.stat(path)).size;
  } catch {
    throw new ImportFileError('The uploaded file is no longer available; upload it again');
  }
  if (size === 0) throw new ImportFileError('The file is empty');
  if (size > maxImportBytes) throw new ImportFileError('The file is larger than the limit of 200 MB');
  const fh = await fsp.open(path, 'r');
  let sample: Buffer;
  try {
    const buf = Buffer.alloc(Math.min(size, sampleBytes));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    sample = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  if (sample.includes(0)) throw new ImportFileError('The file is not a CSV text file');
  let body = sample;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
  // A sample may end inside a multi-byte character: judge UTF-8 without its last three bytes.
  const encoding = isUtf8(size > sample.length ? body.subarray(0, Math.max(0, body.length - 3)) : body) ? 'utf8' : 'latin1';
  const text = body.toString(encoding);
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.trim() === '') throw new ImportFileError('The file has no header row: its first line is empty');
  const delimiter = detectDelimiter(firstLine);
  let header: string[];
  try {
    header = (parseSync(firstLine, { delimiter, relax_quotes: true, bom: true }) as string[][])[0] ?? [];
  } catch {
    throw new ImportFileError('The header row is not valid CSV');
  }
  header = header.map((h) => h.trim());
  if (header.every((h) => h === '')) throw new ImportFileError('The file has no header row: its first line is empty');
  return { encoding, delimiter, header, size };
}

export interface CsvRecord {
  /** Row number as a spreadsheet shows it: the header is row 1, the first data record row 2 (empty lines skipped). */
  row: number;
  fields: string[];
}

/**
 * The data records (header skipped), streamed from disk, in batches of whatever csv-parse has ready:
 * one await per batch instead of per record keeps a million rows cheap.
 */
export async function* csvBatches(path: string, info: CsvInfo): AsyncGenerator<CsvRecord[]> {
  const parser: Parser = parse({
    delimiter: info.delimiter,
    encoding: info.encoding,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: maxRecordBytes,
  });
  const source = fs.createReadStream(path, { highWaterMark: 1024 * 1024 });
  source.on('error', (err) => parser.destroy(err));
  const queue: string[][] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  parser.on('data', (record: string[]) => {
    queue.push(record);
    if (queue.length >= 20_000) parser.pause();
    notify();
  });
  parser.on('end', () => {
    ended = true;
    notify();
  });
  parser.on('error', (err) => {
    failure = err;
    notify();
  });
  source.pipe(parser);
  let row = 0;
  try {
    for (;;) {
      if (failure) throw failure;
      if (queue.length) {
        const records = queue.splice(0, queue.length);
        parser.resume();
        const batch: CsvRecord[] = [];
        for (const fields of records) {
          row++;
          if (row > 1) batch.push({ row, fields });
        }
        if (batch.length) yield batch;
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/** CSV syntax problems as a sentence with the line, for the import's failure reason. */
export function describeCsvError(err: unknown): string | null {
  const e = err as { code?: string; lines?: number; message?: string };
  if (typeof e?.code !== 'string' || !e.code.startsWith('CSV_')) return null;
  const at = e.lines ? ` at line ${e.lines}` : '';
  switch (e.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `The file is not valid CSV: a quoted value opened${at} is never closed`;
    case 'CSV_MAX_RECORD_SIZE':
      return `The file is not valid CSV: the row${at} is longer than 64 KB (a quote left open?)`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `The file is not valid CSV: unexpected text after a closing quote${at}`;
    default:
      return `The file is not valid CSV${at}: ${e.message ?? e.code}`;
  }
}
