/**
 * Media and uploads: media stored by id (uploaded by the business or sent by customers), the signed,
 * expiring download URLs, and resumable upload sessions that end in a handle template headers can name.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SandboxAccount } from './account';
import { SandboxGraphError, badParam, invalid, missing, unknownObject } from './graph-error';
import { mediaKindOf, mediaLimits } from './samples';
import { type SandboxMedia, type SandboxState, graphId } from './state';

const MEDIA_URL_TTL_MS = 5 * 60_000;

export interface UploadSession {
  id: string;
  appId: string;
  fileName: string;
  fileLength: number;
  fileType: string;
  chunks: Buffer[];
  offset: number;
  handle?: string;
}

export class MediaStore {
  private readonly uploads = new Map<string, UploadSession>();
  private interruptUploadAfter: number | undefined;

  constructor(private readonly state: SandboxState) {}

  /** The next resumable upload keeps only its first `bytes` bytes and drops the connection (to test resuming). */
  interruptNextUpload(bytes: number): void {
    this.interruptUploadAfter = bytes;
  }

  storeMedia(phoneNumberId: string, data: Buffer, mimeType: string, fileName?: string): SandboxMedia {
    const m: SandboxMedia = {
      id: graphId(),
      phoneNumberId,
      data,
      mimeType,
      sha256: createHash('sha256').update(data).digest('hex'),
      fileName,
      createdAt: this.state.now(),
    };
    this.state.media.set(m.id, m);
    return m;
  }

  /** POST /{PHONE_NUMBER_ID}/media */
  uploadMedia(account: SandboxAccount, fields: Record<string, string>, file: { data: Buffer; mimeType: string; fileName?: string } | undefined): object {
    if (fields.messaging_product !== 'whatsapp') throw badParam("The parameter messaging_product is required and must be 'whatsapp'.");
    if (!file) throw missing('The parameter file is required.');
    const mimeType = (fields.type || file.mimeType).toLowerCase();
    const kind = mediaKindOf(mimeType);
    if (!kind) throw badParam(`Param file must be a file with one of the supported types; ${mimeType} is not supported.`);
    if (file.data.length === 0) throw invalid('Param file is empty.');
    if (file.data.length > mediaLimits[kind].maxBytes) {
      throw new SandboxGraphError(131053, `The ${kind} is ${file.data.length} bytes; the limit is ${mediaLimits[kind].maxBytes} bytes.`);
    }
    return { id: this.storeMedia(account.phoneNumberId, file.data, mimeType, file.fileName).id };
  }

  /** GET /{MEDIA_ID}: media the token's accounts can see. */
  mediaFor(visible: SandboxAccount[], id: string): SandboxMedia | undefined {
    const m = this.state.media.get(id);
    return m && visible.some((a) => a.phoneNumberId === m.phoneNumberId) ? m : undefined;
  }

  /** The download query: media id, expiry and a MAC, so a URL cannot be forged or extended. */
  mediaUrlQuery(m: SandboxMedia): string {
    const ext = this.state.now() + MEDIA_URL_TTL_MS;
    return `mid=${m.id}&ext=${ext}&hash=${this.mac(`${m.id}.${ext}`)}`;
  }

  checkMediaUrl(mid: string, ext: string, hash: string): SandboxMedia | 'expired' | undefined {
    if (hash !== this.mac(`${mid}.${ext}`)) return undefined;
    if (Number(ext) < this.state.now()) return 'expired';
    return this.state.media.get(mid);
  }

  private mac(s: string): string {
    return createHash('sha256').update(`${this.state.opts.appSecret}:${s}`).digest('base64url').slice(0, 22);
  }

  // ---------- resumable upload ----------

  createUploadSession(account: SandboxAccount, q: Record<string, string | undefined>): object {
    const allowed = ['application/pdf', 'image/jpeg', 'image/jpg', 'image/png', 'video/mp4'];
    if (!q.file_name) throw missing('The parameter file_name is required.');
    const length = Number(q.file_length);
    if (!q.file_length || !Number.isInteger(length) || length <= 0) throw invalid('Param file_length must be a positive integer.');
    if (!q.file_type || !allowed.includes(q.file_type)) throw invalid(`Param file_type must be one of ${allowed.join(', ')}.`);
    const id = `upload:${randomBytes(18).toString('base64url')}`;
    this.uploads.set(id, { id, appId: account.appId, fileName: q.file_name, fileLength: length, fileType: q.file_type, chunks: [], offset: 0 });
    return { id };
  }

  uploadSession(visible: SandboxAccount[], id: string, method: string): UploadSession {
    const s = this.uploads.get(id);
    if (!s || !visible.some((a) => a.appId === s.appId)) throw unknownObject(id, method);
    return s;
  }

  /** POST /upload:<id>: appends bytes at file_offset; answers the handle once the file is complete. */
  appendUpload(s: UploadSession, fileOffset: string | undefined, data: Buffer): { body: object; interrupt: boolean } {
    const offset = Number(fileOffset ?? '0');
    if (!Number.isInteger(offset) || offset !== s.offset) {
      throw invalid(`Param file_offset must be the current offset of the upload session (${s.offset}); got ${fileOffset}.`);
    }
    if (offset + data.length > s.fileLength) throw invalid(`The upload is longer than file_length (${s.fileLength} bytes).`);
    let interrupt = false;
    if (this.interruptUploadAfter !== undefined && data.length > this.interruptUploadAfter) {
      data = data.subarray(0, this.interruptUploadAfter);
      this.interruptUploadAfter = undefined;
      interrupt = true;
    }
    s.chunks.push(Buffer.from(data));
    s.offset += data.length;
    if (s.offset === s.fileLength && !s.handle) {
      s.handle = `4::${Buffer.from(s.fileType).toString('base64')}:${randomBytes(24).toString('base64url')}`;
      this.state.handles.add(s.handle);
      this.state.save();
    }
    return { body: s.handle ? { h: s.handle } : { id: s.id, file_offset: s.offset }, interrupt };
  }

  uploadedFile(handle: string): Buffer | undefined {
    const s = [...this.uploads.values()].find((x) => x.handle === handle);
    return s ? Buffer.concat(s.chunks) : undefined;
  }
}
