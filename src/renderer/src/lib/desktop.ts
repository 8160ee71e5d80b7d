/**
 * The desktop app's bridge: the preload exposes the IPC contract of src/shared/ipc.ts as `window.desktop`. Its
 * presence is the one switch between desktop and web mode (the desktop end-to-end suite provides it in Chromium).
 */
import { type DesktopApi, type IpcAnswer, type IpcArgs, type IpcChannelName, splitChannelName, unwrapIpcResult } from '@shared/ipc';

declare global {
  interface Window {
    desktop?: DesktopApi;
  }
}

export function getDesktop(): DesktopApi | undefined {
  return typeof window === 'undefined' ? undefined : window.desktop;
}

export function isDesktop(): boolean {
  return getDesktop() !== undefined;
}

/** Calls a channel and answers its value, or throws a DesktopIpcError (statusCode, error, code). */
export async function desktopCall<C extends IpcChannelName>(name: C, ...arg: undefined extends IpcArgs<C> ? [IpcArgs<C>?] : [IpcArgs<C>]): Promise<IpcAnswer<C>> {
  const desktop = getDesktop();
  if (!desktop) throw new Error('Not running in the desktop app');
  const [group, method] = splitChannelName(name);
  const call = (desktop as unknown as Record<string, Record<string, (a: unknown) => Promise<unknown>>>)[group][method];
  return unwrapIpcResult((await call(arg[0])) as Parameters<typeof unwrapIpcResult<IpcAnswer<C>>>[0]);
}
