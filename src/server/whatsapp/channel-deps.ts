import type { ServiceDeps } from '../services/context';
import type { AccountRow } from '../repositories/channel';

export interface MediaDownloader {
  download(account: AccountRow, mediaId: string): Promise<{ data: Buffer; mimeType: string }>;
}

/** The services' deps, plus an optional media downloader (the Graph media API unless replaced). */
export type ChannelDeps = ServiceDeps & { media?: MediaDownloader };
