import type { ServiceDeps } from '../services/context';
import type { AccountRow } from '../repositories/channel';
import type { QualityUpdateValue } from './webhook-payload';

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
  /** Issue 19 item 9: a review webhook named a template none of these accounts knows (a template sync follows). */
  afterUnknownTemplate?: (accounts: AccountRow[]) => Promise<unknown>;
  /** Issue 19 item 8: a phone_number_quality_update for this account. */
  afterQualityUpdate?: (account: AccountRow, value: QualityUpdateValue) => Promise<unknown>;
};
