/**
 * Live chat's keyboard shortcuts (the table is lib/shortcuts.ts): J / K next and previous conversation of the
 * list on screen, E close and open the next, A assign to me, R focus the composer. Each has a button or menu
 * entry too; the key handlers call the same functions as those.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useRef } from 'react';
import type { ConversationDetail } from '@shared/schemas/entities';
import { toast } from 'sonner';
import { type ApiBody, api, errorText } from '../../../lib/api-client';
import { shortcutOf } from '../../../lib/shortcuts';
import { liveChatKeys } from '../api/keys';
import type { ConversationPages } from '../utils/cache-updates';
import type { LiveChatTab } from '../utils/tabs';
import { conversationCommands } from './use-live-chat-ui';

/** The conversation `step` rows away from `currentId` in the list on screen (the first one when none is open). */
export function neighbourOf(ids: string[], currentId: string | undefined, step: 1 | -1): string | null {
  if (ids.length === 0) return null;
  const at = currentId ? ids.indexOf(currentId) : -1;
  if (at < 0) return step === 1 ? ids[0] : ids[ids.length - 1];
  return ids[at + step] ?? null;
}

function listIds(qc: QueryClient, workspaceId: string, tab: LiveChatTab, search: string, sort: 'recent' | 'waiting'): string[] {
  const key = sort === 'waiting' ? liveChatKeys.waitingList(workspaceId, tab, search) : liveChatKeys.conversationList(workspaceId, tab, search);
  const data = qc.getQueryData<ConversationPages>(key);
  return data?.pages.flatMap((p) => p.items.map((c) => c.id)) ?? [];
}

export interface ConversationActions {
  go: (step: 1 | -1) => void;
  closeAndNext: () => Promise<void>;
  assignToMe: () => Promise<void>;
}

export function useConversationActions(workspaceId: string, tab: LiveChatTab, search: string, conversationId: string | undefined, memberId: string, sort: 'recent' | 'waiting' = 'recent'): ConversationActions {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const open = useCallback(
    (id: string | null) => {
      if (id) void navigate({ to: '/live-chat/$conversationId', params: { conversationId: id }, search: { tab } });
      else void navigate({ to: '/live-chat', search: { tab } });
    },
    [navigate, tab],
  );
  const patch = useCallback(
    async (id: string, body: ApiBody<'patchConversation'>) => {
      const conversation = await api('patchConversation', { params: { conversationId: id }, body });
      qc.setQueryData<ConversationDetail>(liveChatKeys.conversation(id), (old) => (old ? { ...old, ...conversation } : old));
      void qc.invalidateQueries({ queryKey: liveChatKeys.conversation(id) });
      void qc.invalidateQueries({ queryKey: liveChatKeys.conversations(workspaceId) });
      void qc.invalidateQueries({ queryKey: liveChatKeys.counts(workspaceId) });
    },
    [qc, workspaceId],
  );
  return {
    go: (step) => open(neighbourOf(listIds(qc, workspaceId, tab, search, sort), conversationId, step)),
    closeAndNext: async () => {
      if (!conversationId) return;
      const ids = listIds(qc, workspaceId, tab, search, sort);
      // The next one after this, else the one before (this one may leave the tab once closed).
      const next = neighbourOf(ids, conversationId, 1) ?? neighbourOf(ids, conversationId, -1);
      await patch(conversationId, { isActive: false });
      open(next);
    },
    assignToMe: async () => {
      if (conversationId) await patch(conversationId, { assigneeMemberId: memberId, assigneeBotId: null });
    },
  };
}

/** Binds the keys while live chat is on screen. */
export function useConversationShortcuts(actions: ConversationActions) {
  const ref = useRef(actions);
  useEffect(() => {
    ref.current = actions;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const id = shortcutOf(e);
      const a = ref.current;
      const run: Partial<Record<NonNullable<typeof id>, () => unknown>> = {
        next: () => a.go(1),
        previous: () => a.go(-1),
        closeNext: () => a.closeAndNext(),
        assignMe: () => a.assignToMe(),
        composer: () => conversationCommands.focusComposer?.(),
      };
      const fn = id ? run[id] : undefined;
      if (!fn) return;
      e.preventDefault();
      void Promise.resolve(fn()).catch((err: unknown) => toast.error(errorText(err)));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
