/**
 * GET /workspace/{id}/mentions, /mentions/count and POST /conversation/{id}/mentions/read (additions): the notes
 * that mention the signed-in member, how many are unread, and marking a conversation's mentions seen.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api-client';

export const mentionKeys = {
  all: (workspaceId: string) => ['mentions', workspaceId] as const,
  list: (workspaceId: string) => ['mentions', workspaceId, 'list'] as const,
  count: (workspaceId: string) => ['mentions', workspaceId, 'count'] as const,
};

export function mentionsQueryOptions(workspaceId: string) {
  return queryOptions({
    queryKey: mentionKeys.list(workspaceId),
    queryFn: ({ signal }) => api('listMentions', { params: { workspaceId }, query: { limit: 50 }, signal }),
  });
}

export function useMentions(workspaceId: string, enabled: boolean) {
  return useQuery({ ...mentionsQueryOptions(workspaceId), enabled });
}

export function useMentionCount(workspaceId: string) {
  return useQuery({
    queryKey: mentionKeys.count(workspaceId),
    queryFn: ({ signal }) => api('countMentions', { params: { workspaceId }, signal }),
  });
}

/** Opening a conversation with unread mentions of me marks them seen. */
export function useMarkMentionsRead(conversationId: string, workspaceId: string, hasUnread: boolean) {
  const qc = useQueryClient();
  const mark = useMutation({
    mutationFn: () => api('markMentionsRead', { params: { conversationId } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: mentionKeys.all(workspaceId) }),
  });
  const { mutate } = mark;
  useEffect(() => {
    if (hasUnread) mutate();
  }, [hasUnread, mutate, conversationId]);
}
