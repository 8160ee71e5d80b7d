/**
 * A stand-in for the desktop main process in happy-dom: `window.desktop` is built by the REAL preload code
 * (src/preload/api.ts) over a fake ipcRenderer that checks every argument with the contract's schema (as main
 * does) and answers from per-channel handlers; tests push main's events with `emit`.
 */
import { createDesktopApi } from '../../../src/preload/api';
import {
  type IpcAnswer,
  type IpcChannelName,
  type IpcEventName,
  type IpcEventPayload,
  type IpcResult,
  ipcChannels,
  ipcEventPrefix,
  ipcInvokePrefix,
} from '../../../src/shared/ipc';

type Handler<C extends IpcChannelName> = (arg: unknown) => IpcAnswer<C> | Promise<IpcAnswer<C>>;
export type Handlers = { [C in IpcChannelName]?: Handler<C> };

export class IpcFailureAnswer extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export function fakeMain(handlers: Handlers) {
  const calls: { channel: IpcChannelName; arg: unknown }[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const desktop = createDesktopApi({
    async invoke(channel, arg): Promise<IpcResult<unknown>> {
      const name = channel.slice(ipcInvokePrefix.length) as IpcChannelName;
      calls.push({ channel: name, arg });
      const parsed = ipcChannels[name].args.safeParse(arg);
      if (!parsed.success) throw new Error(`renderer sent a malformed argument to ${name}: ${JSON.stringify(arg)}`);
      const handler = handlers[name] as ((a: unknown) => unknown) | undefined;
      if (!handler) return { ok: false, failure: { statusCode: 501, message: `no fake for ${name}`, error: 'Not Implemented', code: null } };
      try {
        return { ok: true, value: await handler(parsed.data) };
      } catch (err) {
        if (err instanceof IpcFailureAnswer) {
          return { ok: false, failure: { statusCode: err.statusCode, message: err.message, error: 'Failed', code: err.code } };
        }
        throw err;
      }
    },
    subscribe(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
      return () => set.delete(listener);
    },
  });
  return {
    desktop,
    calls,
    callsOf: (name: IpcChannelName) => calls.filter((c) => c.channel === name).map((c) => c.arg),
    emit<E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) {
      for (const l of listeners.get(ipcEventPrefix + event) ?? []) l(payload);
    },
  };
}
