/**
 * Uploads: the one file of a multipart request streamed into the file store (chat and template media, bot
 * media, profile photos, contact CSVs), and the upload routes of the audience and automation areas.
 */
import type { FastifyRequest } from 'fastify';
import { type MultipartSpec, routes } from '../../shared/api/routes';
import { productMessages } from '../../shared/messages';
import { HttpError, badRequest, forbidden } from '../errors';
import { membershipsOf } from '../repositories/workspaces';
import { type FileArea, type FileStore, type StoredFile, tooLarge } from '../storage/file-store';
import type { Caller, WorkspaceContext } from './caller';
import type { ServiceDeps } from './context';

function mimeAccepted(mimeType: string, accepted: readonly string[]): boolean {
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

/** Profile photos are shown in <img> tags of other members, which cannot send a token: a long-lived signed link. */
const profilePhotoLinkSeconds = 365 * 24 * 3600;

export function uploadService(d: Pick<ServiceDeps, 'db' | 'files'>) {
  const files = d.files;
  return {
    // The stored link needs a token; whoever hands it to Meta signs it (files.signedUrl).
    async botMedia(ctx: WorkspaceContext, request: FastifyRequest) {
      const f = await receiveUpload(request, routes.uploadBotMedia.multipart, files, { workspaceId: ctx.workspaceId, area: 'bot-media' });
      return { mediaLink: f.url };
    },
    /** Stored in the member's current workspace (else their first one). */
    async profilePhoto(caller: Caller, request: FastifyRequest) {
      const member = caller.member;
      const workspaceId = member?.currentWorkspaceId ?? (member ? (await membershipsOf(d.db.db, member.id))[0]?.workspaceId : undefined);
      if (!member || !workspaceId) throw forbidden(productMessages.notMember);
      const f = await receiveUpload(request, routes.uploadProfilePhoto.multipart, files, { workspaceId, area: 'profile-photos' });
      return { photoUrl: files.signedUrl(f.key, profilePhotoLinkSeconds) };
    },
    async importFile(ctx: WorkspaceContext, request: FastifyRequest) {
      const f = await receiveUpload(request, routes.uploadImportFile.multipart, files, { workspaceId: ctx.workspaceId, area: 'imports' });
      return { fileUrl: f.url };
    },
  };
}
