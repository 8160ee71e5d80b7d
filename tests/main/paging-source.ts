// A source of REST list pages without a server: the route table's list shapes, newest first, page by page (as text
// for the page thread, or parsed with the same schemas as real answers).
import type { z } from 'zod';
import { routes, type RouteName } from '../../src/shared/api/routes';
import type { Contact, ConversationListEntry } from '../../src/shared';
import { ServerAnswerError, type ServerApi } from '../../src/main/cache/server-api';

export const WS = '00000000-0000-4000-8000-000000000001';
const ME = '00000000-0000-4000-8000-0000000000aa';
export const id = (kind: number, i: number) => `00000000-0000-4000-${8000 + kind}-${String(i).padStart(12, '0')}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
const PAGE = 200;

export const contact = (i: number): Contact => ({
  id: id(1, i), createdAt: at(i), workspaceId: WS, name: `Customer ${i}${i % 500 === 0 ? ' Okafor' : ''}`, attributes: {}, channel: 'WhatsApp',
  phoneNumber: `+35191${String(i).padStart(7, '0')}`, email: null, tags: [], country: 'PT', city: 'Porto', meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null,
});
export const conversation = (i: number): ConversationListEntry => ({
  id: id(2, i), createdAt: at(i), isActive: true, channel: 'WhatsApp', contactId: id(1, i), workspaceId: WS, whatsappAccountId: null,
  assigneeMemberId: null, assigneeBotId: null, lastMessageAt: at(i), Contact: contact(i), unread: false,
  lastMessage: {
    id: id(3, i), type: 'text', header: null, text: `Question number ${i}`, mediaUrl: null, footer: null, action: null, templateComponents: null,
    createdAt: at(i), creator: 'user', conversationId: id(2, i), memberId: null, status: 'received', failureReason: null,
  },
});

/**
 * Newest first, pages of 200, the cursor being the next page's index; `failAt` makes that conversation page answer
 * 503, `contactPageText` replaces the text of a contact page (undefined: the real one).
 */
export function source(contacts: number, conversations: number, opts: { failAt?: number; contactPageText?: (page: number) => string | undefined } = {}): ServerApi & { requests: number } {
  const list = <T>(n: number, of: (i: number) => T, cursor: string | undefined) => {
    const page = Number(cursor ?? 0);
    const items = Array.from({ length: Math.max(0, Math.min(PAGE, n - page * PAGE)) }, (_, k) => of(n - page * PAGE - k));
    return { items, nextCursor: (page + 1) * PAGE < n ? String(page + 1) : null };
  };
  const answer = (name: RouteName, cursor: string | undefined): unknown => {
    api.requests++;
    if (name === 'listConversations' && opts.failAt !== undefined && Number(cursor ?? 0) === opts.failAt) {
      throw new ServerAnswerError(503, 'listConversations: 503 Service Unavailable');
    }
    return name === 'getMe'
      ? { id: ME, uid: 'paging', role: 'agent', createdAt: at(0), currentWorkspaceId: WS, workspaceIds: [WS], Workspaces: [] }
      : name === 'listContacts'
        ? list(contacts, contact, cursor)
        : name === 'listConversations'
          ? list(conversations, conversation, cursor)
          : { items: [], nextCursor: null };
  };
  const api = {
    requests: 0,
    async get(name: RouteName, _params?: Record<string, string>, query: Record<string, string | number | undefined> = {}) {
      return (routes[name].response as z.ZodType).parse(JSON.parse(JSON.stringify(answer(name, query.cursor as string | undefined)))) as never;
    },
    async getText(name: RouteName, _params?: Record<string, string>, query: Record<string, string | number | undefined> = {}) {
      const cursor = query.cursor as string | undefined;
      const replaced = name === 'listContacts' ? opts.contactPageText?.(Number(cursor ?? 0)) : undefined;
      return { status: 200, text: replaced ?? JSON.stringify(answer(name, cursor)) };
    },
    // eslint-disable-next-line require-yield
    async *events(): AsyncGenerator<never> {
      throw new Error('no stream in this test');
    },
  };
  return api as ServerApi & { requests: number };
}

