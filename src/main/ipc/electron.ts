// Electron glue for the IPC router: registers one ipcMain.handle per contract channel, and sends events.
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { type IpcEventName, type IpcEventPayload, ipcEventPrefix, ipcEvents, ipcInvokePrefix } from '../../shared/ipc';
import type { IpcRouter, IpcSender } from './router';

interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, arg: unknown) => Promise<unknown>): void;
}

export function senderOf(event: IpcMainInvokeEvent): IpcSender | null {
  const frame = event.senderFrame;
  // null when the frame navigated away or was destroyed before the call arrived
  if (!frame) return null;
  return { url: frame.url, isMainFrame: frame.parent === null };
}

export function registerIpcRouter(ipcMain: IpcMainLike, router: IpcRouter): void {
  for (const name of router.channels) {
    ipcMain.handle(ipcInvokePrefix + name, (event, arg) => router.handle(name, senderOf(event), arg));
  }
}

/** Sends a contract event to one window (the payload is checked against the contract first). */
export function sendEvent<E extends IpcEventName>(contents: WebContents | null | undefined, event: E, payload: IpcEventPayload<E>): void {
  if (!contents || contents.isDestroyed()) return;
  contents.send(ipcEventPrefix + event, ipcEvents[event].parse(payload));
}
