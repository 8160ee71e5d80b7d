/** A CSV file a service produced, streamed as the response (a download: attachment with its file name). */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { CsvFile } from '../services/csv';

export async function sendCsv(reply: FastifyReply, file: CsvFile): Promise<void> {
  reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file.fileName}"`);
  await reply.send(Readable.from(file.lines));
}
