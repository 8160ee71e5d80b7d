// window.desktop, derived from the IPC contract (src/shared/ipc.ts): one function per channel, grouped by the
// part before the dot, and `on` for main's events. Takes the two ipcRenderer functions it needs, so it is
// tested in Node; src/preload/index.ts passes Electron's.
import {
  type DesktopApi,
  type IpcEventName,
  ipcChannelNames,
  ipcEventNames,
  ipcEventPrefix,
  ipcInvokePrefix,
  splitChannelName,
} from '../shared/ipc';

export interface PreloadIpc {
  invoke(channel: string, arg: unknown): Promise<unknown>;
  /** subscribes; returns the unsubscribe function */
  subscribe(channel: string, listener: (payload: unknown) => void): () => void;
}

const eventNames = new Set<string>(ipcEventNames);

export function createDesktopApi(ipc: PreloadIpc): DesktopApi {
  const groups: Record<string, Record<string, (arg?: unknown) => Promise<unknown>>> = {};
  for (const name of ipcChannelNames) {
    const [group, method] = splitChannelName(name);
    groups[group] ??= {};
    // Exactly one argument crosses: nothing else the page passes reaches main.
    groups[group][method] = (arg?: unknown) => ipc.invoke(ipcInvokePrefix + name, arg);
  }
  const on = (event: IpcEventName, listener: (payload: unknown) => void): (() => void) => {
    if (!eventNames.has(event)) throw new Error(`Unknown desktop event: ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('The listener must be a function');
    // The listener gets the payload only, never Electron's IpcRendererEvent (it exposes sender internals).
    return ipc.subscribe(ipcEventPrefix + event, (payload) => listener(payload));
  };
  return { ...groups, on } as unknown as DesktopApi;
}
