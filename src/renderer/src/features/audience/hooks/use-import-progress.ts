/**
 * Follows a running import: its progress and end from the event stream, and, should the stream be down, from
 * the import's own record (polled) so the wizard still learns that it ended.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ImportHistory } from '@shared/schemas/entities';
import { api } from '../../../lib/api-client';
import { useWorkspaceEvents } from '../../../lib/workspace-events';

export interface ImportProgress {
  importHistory: ImportHistory;
  processed: number;
  total: number;
}

interface ProgressOptions {
  workspaceId: string;
  /** The import is under way (the record is polled only then). */
  running: boolean;
  /** The import ended (finished or failed); stable (a new one each render would re-run the poll's check). */
  onEnded: () => void;
  onFinished?: () => void;
}

export function useImportProgress({ workspaceId, running, onEnded, onFinished }: ProgressOptions) {
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const importId = progress?.importHistory.id;

  useWorkspaceEvents(workspaceId, (e) => {
    if ((e.type === 'import.progress' || e.type === 'import.finished') && e.payload.importHistory.id === importId) {
      setProgress(e.payload);
      if (e.type === 'import.finished') {
        onEnded();
        onFinished?.();
      }
    }
  });
  const poll = useQuery({
    queryKey: ['audience', 'import-poll', importId],
    queryFn: async () => {
      const page = await api('listImportHistory', { params: { workspaceId }, query: { limit: 20 } });
      return page.items.find((i) => i.id === importId) ?? null;
    },
    enabled: running && !!importId,
    refetchInterval: 3000,
  });
  useEffect(() => {
    const h = poll.data;
    if (running && h && h.status !== 'pending') {
      setProgress((p) => ({ importHistory: h, processed: p?.processed ?? h.processedRows ?? 0, total: p?.total ?? h.processedRows ?? 0 }));
      onEnded();
      onFinished?.();
    }
  }, [poll.data, running, onEnded, onFinished]);

  return { progress, setProgress };
}
