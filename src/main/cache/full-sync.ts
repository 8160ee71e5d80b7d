// A full sync: every REST list of the workspace written into its cache under a new generation, then the rows
// the generation did not touch swept. The first start needs it, and so does every `reset` of the stream.
import type { AuthMe } from '../../shared';
import { type PageKind, PageNotJsonError, pageRoutes, type ParsedPage } from './page-rows';
import type { PageParser } from './page-thread';
import { ServerAnswerError, type ServerApi } from './server-api';
import type { CacheChange, WorkspaceCache } from './workspace-cache';

const PAGE = 200;

type PageReader<K extends PageKind> = (cursor: string | undefined) => Promise<ParsedPage<K>>;

/** One list's pages as rows: the text from the server, parsed on the page thread (a text that is no JSON is the server's fault). */
function listReader<K extends PageKind>(api: ServerApi, pages: PageParser, kind: K, workspaceId: string): PageReader<K> {
  const name = pageRoutes[kind];
  return async (cursor) => {
    const { status, text } = await api.getText(name, { workspaceId }, { limit: PAGE, cursor });
    try {
      return await pages.parse(kind, text);
    } catch (error) {
      throw error instanceof PageNotJsonError ? new ServerAnswerError(status, error.message) : error;
    }
  };
}

/**
 * Reads every page of one list and writes each as it arrives (into the sync's open transaction, see PageBatch):
 * while one page is written, the server prepares the next and the page thread parses it (the next page's cursor is
 * in this one, so nothing runs further ahead).
 */
async function readPages<K extends PageKind>(read: PageReader<K>, write: (rows: ParsedPage<K>['rows']) => void): Promise<void> {
  const request = (cursor: string | undefined): Promise<ParsedPage<K>> => {
    const answer = read(cursor);
    // awaited below; if a write fails first, its failure is the one reported
    answer.catch(() => undefined);
    return answer;
  };
  let next: Promise<ParsedPage<K>> | null = request(undefined);
  while (next) {
    const page: ParsedPage<K> = await next;
    next = page.nextCursor ? request(page.nextCursor) : null;
    // one turn of the event loop first: a page already here reaches the page thread before this write holds main
    if (next) await new Promise((resolve) => setImmediate(resolve));
    write(page.rows);
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
  /** where pages are parsed (the process's page thread) */
  pages: PageParser;
}

export async function fullSync({ api, cache, workspaceId, conversationsWithMessages, onMe, onChange, now, pages }: FullSyncDeps): Promise<void> {
  const gen = cache.beginFullSync();
  const me = await api.get('getMe');
  cache.setMeta('memberId', me.id);
  onMe?.(me);
  try {
    for (const kind of ['attributes', 'members', 'contacts', 'conversations'] as const) {
      await readPages(listReader(api, pages, kind, workspaceId), (rows) => cache.writeSyncPage(kind, rows, gen));
    }
  } finally {
    // what was written stays when a page fails: the next attempt sweeps or completes it
    cache.commitSyncPages();
  }
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
