/** GET /files/<key>: the route that serves stored files. */
import type { FastifyInstance } from 'fastify';
import { HttpError, notFound } from '../errors';
import { type AccessDeps, authenticate } from '../auth/access';
import { membership } from '../repositories/workspaces';
import { type FileStore, parseKey } from '../storage/file-store';

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
      .send(await files.open(key));
  });
}
