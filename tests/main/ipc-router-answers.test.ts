// The IPC router's answers word for word (kills the mutants that survived tests/main/ipc.test.ts):
// the renderer shows `message` to the user and branches on `code`, so both are behaviour, not decoration.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIpcRouter, IpcError, type IpcHandlers, type IpcSender } from '../../src/main/ipc/router';

const appFrame: IpcSender = { url: 'file:///opt/Parley/resources/app.asar/out/renderer/index.html', isMainFrame: true };

/** Every channel answers with what `impl` does. */
function routerWith(impl: () => unknown, log?: (line: string, error: unknown) => void) {
  const handlers = new Proxy({}, { get: () => impl }) as IpcHandlers;
  return createIpcRouter(handlers, () => true, log ? { log } : undefined);
}

afterEach(() => vi.restoreAllMocks());

describe('IPC router answers', () => {
  it('names an unknown channel and says so in its code', async () => {
    const res = await routerWith(() => ({ ok: true })).handle('nope.channel', appFrame, undefined);
    expect(res).toEqual({ ok: false, failure: { statusCode: 404, message: 'Unknown channel nope.channel', error: 'Not Found', code: 'unknown-channel' } });
  });

  it('lists every problem of an argument with its dotted path, separated by "; "', async () => {
    const res = await routerWith(() => ({ ok: true })).handle('identity.signIn', appFrame, { email: 5, password: 6 });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.failure.statusCode).toBe(400);
    expect(res.failure.code).toBe('invalid-argument');
    const parts = res.failure.message.split('; ');
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^email: \S/);
    expect(parts[1]).toMatch(/^password: \S/);

    const nested = await routerWith(() => ({ ok: true })).handle('cache.putMe', appFrame, { me: { Workspaces: [{ name: 1 }] } });
    expect(nested.ok).toBe(false);
    if (!nested.ok) expect(nested.failure.message).toMatch(/me\.Workspaces\.0\.[A-Za-z]+: \S/);
  });

  it('answers an IpcError with its own status, message and code, naming an unlisted status "Error"', async () => {
    const error = new IpcError(418, 'Teapot refused', 'teapot');
    expect(error.name).toBe('IpcError');
    const res = await routerWith(() => {
      throw error;
    }).handle('app.info', appFrame, undefined);
    expect(res).toEqual({ ok: false, failure: { statusCode: 418, message: 'Teapot refused', error: 'Error', code: 'teapot' } });
  });

  it('answers any other failure as a 500 in plain words, and logs it with the channel', async () => {
    const log = vi.fn();
    const boom = new Error('db path /home/ada/secret');
    const res = await routerWith(() => {
      throw boom;
    }, log).handle('app.info', appFrame, undefined);
    expect(res).toEqual({
      ok: false,
      failure: { statusCode: 500, message: 'Something went wrong in the desktop app', error: 'Internal Server Error', code: 'internal' },
    });
    expect(log).toHaveBeenCalledWith('[parley] IPC app.info failed:', boom);
  });

  it('logs to the console when no logger is given', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const boom = new Error('x');
    await routerWith(() => {
      throw boom;
    }).handle('app.info', appFrame, undefined);
    expect(spy).toHaveBeenCalledWith('[parley] IPC app.info failed:', boom);
  });
});
