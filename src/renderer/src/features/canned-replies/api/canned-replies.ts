/**
 * Canned replies: GET /workspace/{id}/canned-replies, POST /canned-reply,
 * PATCH and DELETE /canned-reply/{id}. One key for the list, shared with the composer's own query of it.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CreateCannedReplyBody, PatchCannedReplyBody } from '@shared/schemas/agent-tools';
import { api, fetchAllPages } from '../../../lib/api-client';

export const cannedRepliesKey = (workspaceId: string) => ['canned-replies', workspaceId] as const;

export function cannedRepliesQueryOptions(workspaceId: string) {
  return queryOptions({
    queryKey: cannedRepliesKey(workspaceId),
    queryFn: ({ signal }) =>
      fetchAllPages((cursor) => api('listCannedReplies', { params: { workspaceId }, query: { limit: 200, ...(cursor ? { cursor } : {}) }, signal })),
  });
}

export const useCannedReplies = (workspaceId: string) => useQuery(cannedRepliesQueryOptions(workspaceId));

export function useSaveCannedReply(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id?: string; body: Omit<z.input<typeof CreateCannedReplyBody>, 'workspaceId'> }) =>
      v.id
        ? api('patchCannedReply', { params: { cannedReplyId: v.id }, body: { shortcut: v.body.shortcut, text: v.body.text } satisfies z.input<typeof PatchCannedReplyBody> })
        : api('createCannedReply', { body: { ...v.body, workspaceId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: cannedRepliesKey(workspaceId) }),
  });
}

export function useDeleteCannedReply(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('deleteCannedReply', { params: { cannedReplyId: id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: cannedRepliesKey(workspaceId) }),
  });
}
