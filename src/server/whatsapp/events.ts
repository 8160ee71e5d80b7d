/**
 * Workspace events of the channel, appended inside the caller's transaction so a change and its event commit
 * together (src/server/realtime/event-log.ts).
 */
import type { Executor } from '../db/client';
import { appendEvent } from '../realtime/event-log';
import type { WorkspaceEventPayload, WorkspaceEventType } from '../../shared/schemas/events';

export async function emit<T extends WorkspaceEventType>(
  ex: Executor,
  workspaceId: string,
  type: T,
  payload: WorkspaceEventPayload<T>,
): Promise<void> {
  await appendEvent(ex, workspaceId, type, payload);
}
