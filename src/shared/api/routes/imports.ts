// Routes of a contact import: uploading the CSV, then importing it.
import * as z from '../../zod';
import { ImportHistory } from '../../schemas/entities';
import { CreateImportBody } from '../../schemas/requests';
import { MB, route, wsBody } from './define';

export const importRoutes = {
  uploadImportFile: route({
    method: 'POST', path: '/import-history/upload', tag: 'import', summary: 'Upload a CSV of contacts',
    multipart: { field: 'file', maxBytes: 200 * MB, mimeTypes: ['text/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream'] },
    status: 201, response: z.object({ fileUrl: z.string() }), access: { kind: 'currentWorkspace', role: 'agent' },
  }),
  createImport: route({
    method: 'POST', path: '/import-history', tag: 'import', summary: 'Import an uploaded CSV into the audience',
    body: CreateImportBody, status: 201, response: ImportHistory, access: wsBody('agent'),
  }),
} as const;
