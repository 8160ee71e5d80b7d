// The desktop cache keeps a conversation's "needs a person" mark (a bot session ended without finishing), so the
// offline list shows it as the server's does, and drops it once the server's copy no longer has it. Real SQLite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Contact, ConversationListEntry } from '../../src/shared';
import { WorkspaceCache } from '../../src/main/cache/workspace-cache';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cache-needs-person-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const WS = '00000000-0000-4000-8000-000000000001';
const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
const contact: Contact = {
  id: '00000000-0000-4000-8001-000000000001', createdAt: at, workspaceId: WS, name: 'Ada', attributes: {}, channel: 'WhatsApp',
  phoneNumber: '+14155550101', email: null, tags: [], country: null, city: null, meta_source_id: null, meta_source_type: null, meta_ctwa_clid: null,
};
const conversation = (extra: Partial<ConversationListEntry>): ConversationListEntry => ({
  id: '00000000-0000-4000-8002-000000000001', createdAt: at, isActive: true, channel: 'WhatsApp', contactId: contact.id, workspaceId: WS,
  whatsappAccountId: null, assigneeMemberId: null, assigneeBotId: null, lastMessageAt: at, Contact: contact, lastMessage: null, unread: false, ...extra,
});

describe('cache: a conversation that needs a person', () => {
  it('keeps the mark offline while the server has it, and drops it once the conversation is taken', () => {
    const cache = new WorkspaceCache(path.join(dir, 'cache.sqlite'));
    cache.putConversations([conversation({ needsPerson: true })]);
    expect(cache.listConversations('open', {}).items.map((c) => c.needsPerson)).toEqual([true]);

    cache.putConversations([conversation({ assigneeMemberId: '00000000-0000-4000-8003-000000000001' })]);
    const [taken] = cache.listConversations('open', {}).items;
    expect(taken.needsPerson).toBeUndefined();
    expect(taken.assigneeMemberId).toBe('00000000-0000-4000-8003-000000000001');
    cache.close();
  });
});
