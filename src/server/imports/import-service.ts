/** Contact imports: create (checked up front, then handed to the durable job), list, and the job itself. */
import type { z } from 'zod';
import type { ImportHistory } from '../../shared';
import type { CreateImportBody, ListQuery } from '../../shared/schemas/requests';
import { insertImport } from '../repositories/imports';
import { badRequest } from '../errors';
import type { WorkspaceContext } from '../services/caller';
import * as r from '../repositories/resources';
import { attributeIndex } from '../repositories/segment-contacts';
import type { ServiceDeps } from '../services/context';
import { ImportFileError, inspectCsv } from './csv-file';
import { type ImportJobData, importJobName, importRunner, planColumns, toImportHistoryWire } from './run-import';
import { importJobs } from './jobs';
import type { JobInfo } from '../jobs/queue';

export function importService(d: ServiceDeps) {
  const runner = importRunner(d);
  const retryLimit = importJobs[importJobName].retryLimit ?? d.config.jobs.retryLimit;

  return {
    runner,

    /** The `contacts.import` job. */
    async runJob(data: ImportJobData, job: JobInfo): Promise<void> {
      try {
        await runner.run(data.importId);
      } catch (err) {
        // Retried (resuming after the rows already committed) until the last attempt, which gives up visibly.
        if (job.retryCount < retryLimit) throw err;
        d.log.error({ err, importId: data.importId }, 'contact import failed on its last attempt');
        await runner.fail(data.importId, 'The import stopped unexpectedly; please try again');
      }
    },

    /**
     * Refuses with 400, before anything is stored, what can be known at once: a fileUrl this server did not
     * store for this workspace's imports, an empty or non-text file, mapped columns the file lacks, unknown
     * attributes. The rows themselves are read by the job.
     */
    async create(ctx: WorkspaceContext, body: z.output<typeof CreateImportBody>): Promise<ImportHistory> {
      // Only a stored upload of this workspace's imports resolves (no external addresses): `key` is set.
      const { key } = (await d.files.resolveReference(body.fileUrl, {
        workspaceId: ctx.workspaceId,
        field: 'fileUrl',
        areas: ['imports'],
        refusal: badRequest('fileUrl must be the fileUrl answered by POST /import-history/upload in this workspace'),
      })) as { key: string };
      try {
        const info = await d.files.withLocalCopy(key, inspectCsv);
        planColumns(info.header, body.columnAttributeMap, await attributeIndex(d.db.db, ctx.workspaceId));
      } catch (err) {
        if (err instanceof ImportFileError) throw badRequest(err.message);
        throw err;
      }
      const row = await d.db.transaction(async (tx) => {
        const created = await insertImport(tx, {
          workspaceId: ctx.workspaceId,
          fileName: body.fileName,
          fileUrl: d.files.url(key),
          columnAttributeMap: body.columnAttributeMap,
          defaultCountry: body.defaultCountry ?? null,
          memberId: ctx.caller.member.id,
        });
        // Queued in the same transaction: the job exists exactly when the history entry does.
        await d.jobs.send(importJobName, { importId: created.id, workspaceId: ctx.workspaceId }, { tx, singletonKey: created.id });
        return created;
      });
      return toImportHistoryWire(row, d.files);
    },

    async list(ctx: WorkspaceContext, query: z.output<typeof ListQuery>) {
      const page = await r.importHistories.page(d.db.db, ctx.workspaceId, query);
      return { items: page.items.map((h) => toImportHistoryWire(h, d.files)), nextCursor: page.nextCursor };
    },
  };
}
