/** Uploads (multipart, streamed to the file store) and the /files route that serves stored files. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartSpec } from '../../shared/api/routes';
import { HttpError, badRequest, notFound } from '../errors';
import { type AccessDeps, authenticate } from '../auth/access';
import { membership } from '../repositories/workspaces';
import { type FileArea, type FileStore, type StoredFile, parseKey, tooLarge } from './file-store';

export function mimeAccepted(mimeType: string, accepted: readonly string[]): boolean {
  const m = mimeType.toLowerCase().split(';')[0].trim();
  return accepted.some((a) => a === m || (a.endsWith('/*') && m.startsWith(a.slice(0, -1))));
}

/**
 * Reads the one file of a multipart request and streams it into the store. Errors say what to change:
 * 400 for a missing file, a wrong field or a refused type, 413 over the size limit.
 */
export async function receiveUpload(
  request: FastifyRequest,
  spec: MultipartSpec,
  files: FileStore,
  target: { workspaceId: string; area: FileArea },
): Promise<StoredFile> {
  const hint = `Send the file as multipart/form-data in the field "${spec.field}"`;
  if (!request.isMultipart()) throw badRequest(hint);
  let part;
  try {
    part = await request.file({ limits: { fileSize: spec.maxBytes, files: 1, fields: 10, parts: 20 } });
  } catch (err) {
    throw uploadError(err, spec, hint);
  }
  if (!part) throw badRequest(`No file was sent. ${hint}`);
  if (part.fieldname !== spec.field) {
    part.file.resume();
    throw badRequest(`Unexpected file field "${part.fieldname}". ${hint}`);
  }
  if (!mimeAccepted(part.mimetype, spec.mimeTypes)) {
    part.file.resume();
    throw badRequest(`Files of type ${part.mimetype || 'unknown'} are not accepted here; accepted: ${spec.mimeTypes.join(', ')}`);
  }
  try {
    return await files.put({
      ...target,
      fileName: part.filename || 'upload',
      mimeType: part.mimetype,
      data: part.file,
      maxBytes: spec.maxBytes,
    });
  } catch (err) {
    throw uploadError(err, spec, hint);
  }
}

/**
 * What a failed upload answers: 413 over the limit; a server fault (the disk: errors with a `syscall`) stays a
 * 500; anything else came from reading the request (no closing boundary, cut off, malformed headers): 400.
 */
function uploadError(err: unknown, spec: MultipartSpec, hint: string): unknown {
  if (err instanceof HttpError) return err;
  const e = err as { statusCode?: number; code?: string; syscall?: string };
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE' || e?.statusCode === 413) return tooLarge(spec.maxBytes);
  if (e?.syscall || (e?.statusCode !== undefined && e.statusCode >= 500)) return err;
  return badRequest(`The upload could not be read. ${hint}`);
}

/**
 * GET /files/<key>: to members of the key's workspace (bearer token), or to anyone holding a valid signed,
 * unexpired link. Anything else answers 404 (whether the file exists or not is not revealed).
 */
export function registerFileRoutes(app: FastifyInstance, files: FileStore, access: AccessDeps): void {
  app.get('/files/*', { schema: { hide: true } }, async (request, reply) => {
    const raw = (request.params as { '*': string })['*'];
    const key = files.keyFromUrl(`/files/${raw}`);
    const missing = notFound('File not found');
    if (!key) throw missing;
    const q = request.query as { expires?: string; sig?: string };
    if (q.sig !== undefined || q.expires !== undefined) {
      if (!files.verifySignature(key, q.expires, q.sig)) throw new HttpError(403, 'This link has expired or is not valid');
    } else {
      const caller = await authenticate(request, access);
      const parsed = parseKey(key)!;
      if (!caller.member || !(await membership(access.db.db, parsed.workspaceId, caller.member.id))) throw missing;
    }
    const meta = await files.stat(key);
    if (!meta) throw missing;
    const inline = /^(image|video)\//.test(meta.mimeType) || meta.mimeType === 'application/pdf';
    return reply
      .header('content-type', meta.mimeType)
      .header('content-length', String(meta.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=300')
      .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${parseKey(key)!.fileName}"`)
      .send(files.open(key));
  });
}
