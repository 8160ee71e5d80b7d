/**
 * The data seam of offline browsing: a query reads the API while the server can be reached, and the desktop
 * app's local cache (over IPC) when it cannot. Web mode (no cache) always reads the API.
 */
import type { IpcAnswer, IpcArgs, IpcChannelName } from '@shared/ipc';
import { ApiError } from './api-client';
import { useConnectivity } from './connectivity';
import { desktopCall, getDesktop } from './desktop';

/** Called when a request could not reach the server (lib/desktop-runtime.ts asks main to re-check). */
let onUnreachable: () => void = () => {};
export function setUnreachableHandler(handler: () => void): void {
  onUnreachable = handler;
}

/** Reads `fromApi()` online; offline (or when the server turns out unreachable) reads `fromCache()`. */
export async function onlineOrCache<T>(fromApi: () => Promise<T>, fromCache: () => Promise<T>): Promise<T> {
  if (!getDesktop()) return fromApi();
  if (!useConnectivity.getState().online) return fromCache();
  try {
    return await fromApi();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 0) throw err;
    useConnectivity.getState().setOnline(false);
    onUnreachable();
    return fromCache();
  }
}

/** A cache channel's answer, shaped for the screen (`map`). */
export function fromCache<C extends IpcChannelName, T = IpcAnswer<C>>(
  name: C,
  arg: IpcArgs<C>,
  map: (answer: IpcAnswer<C>) => T = (a) => a as unknown as T,
): () => Promise<T> {
  return async () => map(await (desktopCall as (n: C, a: IpcArgs<C>) => Promise<IpcAnswer<C>>)(name, arg));
}

/** Offline, something the cache does not hold. */
export function notCached(what: string): ApiError {
  return new ApiError(0, `${what} is not available offline`, null);
}
