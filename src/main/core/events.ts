// The events main sends the renderer: each payload is checked against the IPC contract before any listener
// (the Electron glue, the e2e harness) sees it.
import { type IpcEventName, type IpcEventPayload, ipcEvents } from '../../shared/ipc';

export type Emit = <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => void;
type EventListener = <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => void;

interface EventHub {
  emit: Emit;
  onEvent(listener: EventListener): () => void;
  clear(): void;
}

export function createEventHub(): EventHub {
  const listeners = new Set<(event: IpcEventName, payload: unknown) => void>();
  return {
    emit(event, payload) {
      const checked = ipcEvents[event].parse(payload);
      for (const listener of listeners) listener(event, checked);
    },
    onEvent(listener) {
      const l = listener as (event: IpcEventName, payload: unknown) => void;
      listeners.add(l);
      return () => listeners.delete(l);
    },
    clear: () => listeners.clear(),
  };
}
