import type { ServiceDeps } from '../services/context';
import type { AccountRow } from '../repositories/channel';

export interface MediaDownloader {
  download(account: AccountRow, mediaId: string): Promise<{ data: Buffer; mimeType: string }>;
}

/** The services' deps, plus an optional media downloader (the Graph media API unless replaced). */
export type ChannelDeps = ServiceDeps & {
  media?: MediaDownloader;
  /**
   * Issue 19 part B: called once a workspace's inbound messages are committed (their wamids), for
   * auto-assignment. Its failure is logged, never the webhook's.
   */
  afterInbound?: (workspaceId: string, wamids: string[]) => Promise<unknown>;
};
