// A contact import and its outcome.
import * as z from '../../zod';
import { Id, Timestamp } from '../common';

export const ImportStatus = z.enum(['pending', 'completed', 'failed']);
export const ImportHistory = z.object({
  id: Id,
  fileName: z.string(),
  fileUrl: z.string(),
  workspaceId: Id,
  status: ImportStatus,
  createdAt: Timestamp,
  memberId: Id,
  /** Additions: the outcome. Counts grow while the import runs; processedRows counts data rows done. */
  createdCount: z.number().int().optional(),
  updatedCount: z.number().int().optional(),
  rejectedCount: z.number().int().optional(),
  processedRows: z.number().int().optional(),
  /** Why a failed import failed, in words a user understands. */
  failureReason: z.string().nullable().optional(),
  /** CSV of the rejected rows (row, value, reason), once the import has ended with rejections. */
  errorReportUrl: z.string().nullable().optional(),
  finishedAt: Timestamp.nullable().optional(),
});
export type ImportHistory = z.infer<typeof ImportHistory>;
