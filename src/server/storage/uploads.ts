/** The three upload routes of the audience and automation areas: bot media, profile photo, contact CSV. */
import { routes } from '../../shared/api/routes';
import { forbidden } from '../errors';
import { productMessages } from '../../shared/messages';
import type { HandlerGroup } from '../http/types';
import { membershipsOf } from '../repositories/workspaces';
import type { Database } from '../db/client';
import type { FileStore } from './file-store';
import { receiveUpload } from './http';

/** Profile photos are shown in <img> tags of other members, which cannot send a token: a long-lived signed link. */
const profilePhotoLinkSeconds = 365 * 24 * 3600;

export function uploadHandlers(s: { deps: { db: Database; files: FileStore } }): HandlerGroup<'uploadBotMedia' | 'uploadProfilePhoto' | 'uploadImportFile'> {
  const files = s.deps.files;
  return {
    // The stored link needs a token; whoever hands it to Meta signs it (files.signedUrl).
    uploadBotMedia: async ({ ctx, request }) => {
      const f = await receiveUpload(request, routes.uploadBotMedia.multipart, files, { workspaceId: ctx.workspaceId, area: 'bot-media' });
      return { mediaLink: f.url };
    },
    uploadProfilePhoto: async ({ ctx, request }) => {
      const member = ctx.caller.member;
      const workspaceId = member?.currentWorkspaceId ?? (member ? (await membershipsOf(s.deps.db.db, member.id))[0]?.workspaceId : undefined);
      if (!member || !workspaceId) throw forbidden(productMessages.notMember);
      const f = await receiveUpload(request, routes.uploadProfilePhoto.multipart, files, { workspaceId, area: 'profile-photos' });
      return { photoUrl: files.signedUrl(f.key, profilePhotoLinkSeconds) };
    },
    uploadImportFile: async ({ ctx, request }) => {
      const f = await receiveUpload(request, routes.uploadImportFile.multipart, files, { workspaceId: ctx.workspaceId, area: 'imports' });
      return { fileUrl: f.url };
    },
  };
}
