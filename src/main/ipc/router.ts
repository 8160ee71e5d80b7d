// The IPC router: every call from the renderer passes here. It refuses senders that are not the app's own
// main frame (Electron advisory GHSA-mq8j-3h7h-p8g7: check event.senderFrame, not just the webContents),
// validates the argument with the contract's schema, runs the handler, and answers an IpcResult whose value
// is parsed by the contract's answer schema (unknown fields, such as a token, are stripped on the way out).
// Plain Node: src/main/ipc/electron.ts registers it with ipcMain.
import { z } from 'zod';
import { httpErrorNames } from '../../shared/errors';
import {
  type IpcAnswer,
  type IpcChannelName,
  type IpcFailure,
  type IpcParsedArgs,
  type IpcResult,
  ipcChannelNames,
  ipcChannels,
} from '../../shared/ipc';

/** What main knows of the frame that sent a call (null: the frame is gone). */
export interface IpcSender {
  /** the sending frame's URL */
  url: string;
  /** whether it is the top frame of its window (an iframe never is) */
  isMainFrame: boolean;
}

/** A failure the handler means to show (anything else is answered as a 500 without details). */
export class IpcError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'IpcError';
  }
}

export type IpcHandler<C extends IpcChannelName> = (arg: IpcParsedArgs<C>, sender: IpcSender) => Promise<IpcAnswer<C>> | IpcAnswer<C>;
export type IpcHandlers = { [C in IpcChannelName]: IpcHandler<C> };

export interface IpcRouter {
  readonly channels: readonly IpcChannelName[];
  handle(channel: string, sender: IpcSender | null, arg: unknown): Promise<IpcResult<unknown>>;
}

export function failure(statusCode: number, message: string, code: string | null = null): { ok: false; failure: IpcFailure } {
  return { ok: false, failure: { statusCode, message, error: httpErrorNames[statusCode] ?? 'Error', code } };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

export interface IpcRouterOptions {
  /** logs unexpected handler errors (never arguments: they may hold a password) */
  log?: (line: string, error: unknown) => void;
}

export function createIpcRouter(
  handlers: IpcHandlers,
  isTrustedSender: (sender: IpcSender) => boolean,
  { log = (line, error) => console.error(line, error) }: IpcRouterOptions = {},
): IpcRouter {
  const known = new Set<string>(ipcChannelNames);
  return {
    channels: ipcChannelNames,
    async handle(channel, sender, arg) {
      if (!sender || !sender.isMainFrame || !isTrustedSender(sender)) {
        return failure(403, 'This window may not use the desktop app', 'untrusted-sender');
      }
      if (!known.has(channel)) return failure(404, `Unknown channel ${channel}`, 'unknown-channel');
      const name = channel as IpcChannelName;
      const contract = ipcChannels[name];
      const parsed = contract.args.safeParse(arg);
      if (!parsed.success) return failure(400, describeIssues(parsed.error), 'invalid-argument');
      try {
        const handler = handlers[name] as (a: unknown, s: IpcSender) => unknown;
        const value = await handler(parsed.data, sender);
        return { ok: true, value: contract.result.parse(value) };
      } catch (error) {
        if (error instanceof IpcError) return failure(error.statusCode, error.message, error.code);
        log(`[parley] IPC ${name} failed:`, error);
        return failure(500, 'Something went wrong in the desktop app', 'internal');
      }
    },
  };
}
