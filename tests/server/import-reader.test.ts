/** The import's reader thread: chunks, resumption offset, credit window, and CSV errors as sentences. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openChunkReader, type ReaderJob } from '../../src/server/imports/chunk-reader';
import { ImportFileError, inspectCsv } from '../../src/server/imports/csv-file';
import type { ColumnPlan, PreparedChunk } from '../../src/server/imports/rows';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-reader-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}
const plan: ColumnPlan = { phone: [0], fields: [{ field: 'name', index: 1 }], attributes: [{ name: 'age', format: 'number', index: 2 }], width: 3 };

async function job(p: string, extra: Partial<ReaderJob> = {}): Promise<ReaderJob> {
  return { path: p, info: await inspectCsv(p), plan, country: 'US', skip: 0, chunkSize: 2, window: 1, ...extra };
}
async function readAll(j: ReaderJob): Promise<PreparedChunk[]> {
  const reader = openChunkReader(j);
  const out: PreparedChunk[] = [];
  try {
    for await (const c of reader) out.push(c);
  } finally {
    await reader.close();
  }
  return out;
}

describe('the import reader thread', () => {
  it('prepares chunks of normalised contacts and rejections, deduplicating phones within a chunk', async () => {
    const p = file('a.csv', 'phone,name,age\n(415) 555-0101,Ada,36\n+1 415 555 0101,Ada Again,\nnope,Bob,1\n+14155550103,Cy,old\n+14155550104,Di,40\n');
    const chunks = await readAll(await job(p));
    expect(chunks.map((c) => c.rows)).toEqual([2, 2, 1]);
    expect(chunks[0]).toMatchObject({ contacts: 1, duplicates: 1, columns: { phone: '{"+14155550101"}', name: '{"Ada Again"}', attributes: '{"{\\"age\\":36}"}' } });
    expect(chunks[1]).toMatchObject({
      contacts: 0,
      rejected: { count: 2, line: '{"4","5"}', value: '{"nope","old"}', reason: '{"Not a valid phone number","age must be a number"}' },
    });
    expect(chunks[2].columns.phone).toBe('{"+14155550104"}');
    // Ids are time-ordered UUIDs, so new contacts append to the primary-key index.
    expect(chunks[2].columns.id).toMatch(/^\{"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
  });

  it('skips the records an earlier run committed', async () => {
    const p = file('b.csv', 'phone,name,age\n+14155550101,A,\n+14155550102,B,\n+14155550103,C,\n');
    const chunks = await readAll(await job(p, { skip: 2, chunkSize: 10 }));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ rows: 1, columns: { phone: '{"+14155550103"}' } });
  });

  it('answers a CSV syntax error as an ImportFileError with the line', async () => {
    const p = file('c.csv', 'phone,name,age\n+14155550101,A,1\n+14155550102,"open quote,2\n');
    await expect(readAll(await job(p))).rejects.toThrow(ImportFileError);
    await expect(readAll(await job(p))).rejects.toThrow(/quoted value opened at line \d+ is never closed/);
  });

  it('delivers every record once and in order through a window of one chunk, and close() stops it mid-file', async () => {
    const phones = Array.from({ length: 50 }, (_, i) => `+1415555${String(1000 + i)}`);
    const p = file('d.csv', `phone,name,age\n${phones.map((ph) => `${ph},N,`).join('\n')}\n`);
    const chunks = await readAll(await job(p, { chunkSize: 5, window: 1 }));
    expect(chunks).toHaveLength(10);
    expect(chunks.flatMap((c) => c.columns.phone.slice(2, -2).split('","'))).toEqual(phones);

    const reader = openChunkReader(await job(p, { chunkSize: 5, window: 1 }));
    const first = await reader[Symbol.asyncIterator]().next();
    expect(first.value?.rows).toBe(5);
    await reader.close();
  });
});
