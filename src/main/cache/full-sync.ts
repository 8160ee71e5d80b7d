// A full sync: every REST list of the workspace written into its cache under a new generation, then the rows
// the generation did not touch swept. The first start needs it, and so does every `reset` of the stream.
import type { AuthMe } from '../../shared';
import { ServerAnswerError, type ServerApi } from './server-api';
import type { CacheChange, WorkspaceCache } from './workspace-cache';

const PAGE = 200;
/** Rows a full sync writes per transaction: several pages (fewer commits), each write still short. */
const WRITE_BATCH = 1000;

type Page<T> = { items: T[]; nextCursor: string | null };

/**
 * Reads every page of one list, asking for the next page while the current one is written. Each page is
 * written as it arrives; the pages share a transaction committed every WRITE_BATCH rows or more (fewer commits).
 */
async function readPages<T>(
  cache: WorkspaceCache,
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  put: (items: T[]) => void,
): Promise<void> {
  const request = (cursor: string | undefined): Promise<Page<T>> => {
    const answer = fetchPage(cursor);
    // awaited below; if a write fails first, its failure is the one reported
    answer.catch(() => undefined);
    return answer;
  };
  let next: Promise<Page<T>> | null = request(undefined);
  let rows = 0;
  try {
    while (next) {
      const page: Page<T> = await next;
      // The server prepares the next page while this one is written.
      next = page.nextCursor ? request(page.nextCursor) : null;
      cache.openBatch();
      put(page.items);
      rows += page.items.length;
      if (rows >= WRITE_BATCH) {
        cache.commitBatch();
        rows = 0;
      }
    }
  } finally {
    // on a failure too: the pages written are whole, and a sync that did not finish sweeps on its next attempt
    cache.commitBatch();
  }
}

interface FullSyncDeps {
  api: ServerApi;
  cache: WorkspaceCache;
  workspaceId: string;
  /** how many of the newest conversations get their messages */
  conversationsWithMessages: number;
  onMe?: (me: AuthMe) => void;
  onChange?: (change: CacheChange & { full: boolean }) => void;
  now: () => Date;
}

export async function fullSync({ api, cache, workspaceId, conversationsWithMessages, onMe, onChange, now }: FullSyncDeps): Promise<void> {
  const gen = cache.beginFullSync();
  const me = await api.get('getMe');
  cache.setMeta('memberId', me.id);
  onMe?.(me);
  const ws = { workspaceId };
  await readPages(cache, (cursor) => api.get('listAttributes', ws, { limit: PAGE, cursor }), (items) => cache.putAttributes(items, gen));
  await readPages(cache, (cursor) => api.get('listMembers', ws, { limit: PAGE, cursor }), (items) => cache.putMembers(items, gen));
  await readPages(cache, (cursor) => api.get('listContacts', ws, { limit: PAGE, cursor }), (items) => cache.putContacts(items, gen));
  await readPages(cache, (cursor) => api.get('listConversations', ws, { limit: PAGE, cursor }), (items) => cache.putConversations(items, gen));
  for (const conversationId of cache.recentConversationIds(conversationsWithMessages)) {
    try {
      const detail = await api.get('getConversation', { conversationId });
      cache.putMessages(detail.Message);
    } catch (error) {
      // gone meanwhile (404): the sweep below removes it
      if (!(error instanceof ServerAnswerError && error.status === 404)) throw error;
    }
  }
  cache.finishFullSync(gen, now().toISOString());
  onChange?.({ conversationIds: [], contacts: true, full: true });
}
