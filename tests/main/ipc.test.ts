// The IPC contract and its router: every channel refuses a foreign sender and a malformed argument; the
// preload's window.desktop is derived from the contract and reaches nothing else.
import { describe, expect, it } from 'vitest';
import { type IpcChannelName, ipcChannelNames, ipcChannels, ipcEventNames, ipcInvokePrefix, unwrapIpcResult, DesktopIpcError } from '../../src/shared/ipc';
import { createIpcRouter, IpcError, type IpcHandlers, type IpcSender } from '../../src/main/ipc/router';
import { appSenderCheck } from '../../src/main/ipc/sender';
import { createDesktopApi } from '../../src/preload/api';

const APP = 'app://parley/index.html';
const appFrame: IpcSender = { url: `${APP}#/live-chat`, isMainFrame: true };

/** A malformed argument per channel: wrong type for a no-argument channel, wrong fields otherwise. */
const malformed: Record<IpcChannelName, unknown[]> = Object.fromEntries(
  ipcChannelNames.map((name) => [name, [42, 'x', [], { unexpected: true }, { conversationId: 7, email: 'nope', url: 'javascript:alert(1)' }]]),
) as Record<IpcChannelName, unknown[]>;

/** Valid arguments, to show a trusted call goes through. */
const valid: Record<IpcChannelName, unknown> = {
  'identity.signIn': { email: 'agent@acme.test', password: 'correct horse' },
  'identity.signOut': undefined,
  'identity.currentUser': undefined,
  'identity.getIdToken': { forceRefresh: true },
  'identity.sendEmailVerification': undefined,
  'identity.reloadUser': undefined,
  'identity.sendPasswordReset': { email: 'agent@acme.test' },
  'identity.updateProfile': { displayName: 'Ada Agent' },
  'server.getAddress': undefined,
  'server.setAddress': { url: 'https://parley.acme.test' },
  'cache.listConversations': { tab: 'me', search: 'hello', limit: 20, cursor: '40' },
  'cache.conversationCounts': undefined,
  'cache.getMe': undefined,
  'cache.putMe': {
    me: {
      id: 'm1',
      uid: 'u1',
      role: 'agent',
      createdAt: '2026-11-23T10:00:00.000Z',
      currentWorkspaceId: 'w1',
      workspaceIds: ['w1'],
      Workspaces: [{ id: 'w1', createdAt: '2026-11-23T10:00:00.000Z', name: 'Acme', memberIds: ['m1'] }],
    },
  },
  'cache.getConversation': { conversationId: 'c1' },
  'cache.searchContacts': { search: 'ada' },
  'cache.searchMessages': { search: 'invoice' },
  'sync.getStatus': undefined,
  'sync.setWorkspace': { workspaceId: 'w1' },
  'sync.retry': undefined,
  'notifications.getSettings': undefined,
  'notifications.setSettings': { inboundMessage: false },
  'view.setCurrentConversation': { conversationId: null },
  'badge.setUnreadCount': { count: 3 },
  'updater.getStatus': undefined,
  'updater.check': undefined,
  'updater.restart': undefined,
  'shell.openExternal': { url: 'https://x.com/a' },
  'drafts.get': { conversationId: 'c1' },
  'drafts.set': { conversationId: 'c1', text: 'half a sentence' },
  'app.info': undefined,
};

function recordingHandlers() {
  const calls: { channel: IpcChannelName; arg: unknown }[] = [];
  const handlers = Object.fromEntries(
    ipcChannelNames.map((name) => [
      name,
      (arg: unknown) => {
        calls.push({ channel: name, arg });
        throw new IpcError(418, 'reached the handler');
      },
    ]),
  ) as unknown as IpcHandlers;
  return { calls, handlers };
}

describe('IPC router', () => {
  it('refuses every channel from a foreign page, an iframe or a vanished frame, without running the handler', async () => {
    const { calls, handlers } = recordingHandlers();
    const router = createIpcRouter(handlers, appSenderCheck(APP), { log: () => undefined });
    const foreign: (IpcSender | null)[] = [
      { url: 'https://evil.example/', isMainFrame: true },
      { url: 'file:///tmp/evil.html', isMainFrame: true },
      { url: `${APP}#/live-chat`, isMainFrame: false },
      { url: 'about:blank', isMainFrame: true },
      null,
    ];
    for (const name of ipcChannelNames) {
      for (const sender of foreign) {
        const result = await router.handle(name, sender, valid[name]);
        expect(result, `${name} from ${JSON.stringify(sender)}`).toEqual({
          ok: false,
          failure: { statusCode: 403, error: 'Forbidden', message: 'This window may not use the desktop app', code: 'untrusted-sender' },
        });
      }
    }
    expect(calls).toEqual([]);
  });

  it('refuses a malformed argument on every channel with a 400 naming the problem, without running the handler', async () => {
    const { calls, handlers } = recordingHandlers();
    const router = createIpcRouter(handlers, appSenderCheck(APP), { log: () => undefined });
    for (const name of ipcChannelNames) {
      for (const arg of malformed[name]) {
        const result = await router.handle(name, appFrame, arg);
        expect(result.ok, `${name} ${JSON.stringify(arg)}`).toBe(false);
        if (!result.ok) {
          expect(result.failure.statusCode).toBe(400);
          expect(result.failure.code).toBe('invalid-argument');
          expect(result.failure.message.length).toBeGreaterThan(0);
        }
      }
    }
    expect(calls).toEqual([]);
  });

  it('passes a valid argument from the app page to the handler, parsed', async () => {
    const { calls, handlers } = recordingHandlers();
    const router = createIpcRouter(handlers, appSenderCheck(APP), { log: () => undefined });
    for (const name of ipcChannelNames) {
      const result = await router.handle(name, appFrame, valid[name]);
      expect(result, name).toMatchObject({ ok: false, failure: { statusCode: 418, message: 'reached the handler' } });
    }
    expect(calls.map((c) => c.channel)).toEqual(ipcChannelNames);
    expect(calls.find((c) => c.channel === 'server.setAddress')!.arg).toEqual({ url: 'https://parley.acme.test' });
  });

  it('refuses unknown channels and specific bad values', async () => {
    const { handlers } = recordingHandlers();
    const router = createIpcRouter(handlers, appSenderCheck(APP), { log: () => undefined });
    expect((await router.handle('identity.refreshToken', appFrame, undefined)).ok).toBe(false);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'parley://conversation/1']) {
      const result = await router.handle('shell.openExternal', appFrame, { url });
      expect(result, url).toMatchObject({ ok: false, failure: { statusCode: 400 } });
    }
    for (const url of ['https://user:pw@host.test', 'ftp://host.test', 'https://host.test/?q=1', 'not a url']) {
      expect(await router.handle('server.setAddress', appFrame, { url }), url).toMatchObject({ ok: false, failure: { statusCode: 400 } });
    }
    expect(await router.handle('drafts.set', appFrame, { conversationId: 'c1', text: 'x'.repeat(5000) })).toMatchObject({ ok: false });
  });

  it('strips what the contract does not name from an answer (a token never rides along with a profile)', async () => {
    const { handlers } = recordingHandlers();
    handlers['identity.currentUser'] = () =>
      ({ uid: 'u1', email: 'a@b.test', emailVerified: true, displayName: null, photoURL: null, refreshToken: 'secret' }) as never;
    const router = createIpcRouter(handlers, appSenderCheck(APP), { log: () => undefined });
    const result = await router.handle('identity.currentUser', appFrame, undefined);
    expect(result).toEqual({ ok: true, value: { uid: 'u1', email: 'a@b.test', emailVerified: true, displayName: null, photoURL: null } });
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('answers an unexpected handler error as a 500 without its details', async () => {
    const { handlers } = recordingHandlers();
    handlers['app.info'] = () => {
      throw new Error('disk path /home/agent/secret');
    };
    const logged: unknown[] = [];
    const router = createIpcRouter(handlers, appSenderCheck(APP), { log: (_l, e) => void logged.push(e) });
    const result = await router.handle('app.info', appFrame, undefined);
    expect(result).toMatchObject({ ok: false, failure: { statusCode: 500, code: 'internal' } });
    expect(JSON.stringify(result)).not.toContain('/home/agent');
    expect(logged).toHaveLength(1);
    expect(() => unwrapIpcResult(result)).toThrow(DesktopIpcError);
  });
});

describe('window.desktop (preload)', () => {
  it('has one function per channel, grouped, plus on(), and nothing else', async () => {
    const invoked: [string, unknown][] = [];
    const api = createDesktopApi({
      invoke: async (channel, arg) => void invoked.push([channel, arg]),
      subscribe: () => () => undefined,
    }) as unknown as Record<string, Record<string, (a?: unknown) => Promise<unknown>>>;
    const exposed = Object.entries(api).flatMap(([group, value]) =>
      typeof value === 'function' ? [group] : Object.keys(value).map((m) => `${group}.${m}`),
    );
    expect(exposed.sort()).toEqual([...ipcChannelNames, 'on'].sort());
    await (api.identity.signIn as (...a: unknown[]) => Promise<unknown>)({ email: 'a@b.test', password: 'pw' }, 'extra');
    await api.sync.getStatus();
    expect(invoked).toEqual([
      [`${ipcInvokePrefix}identity.signIn`, { email: 'a@b.test', password: 'pw' }],
      [`${ipcInvokePrefix}sync.getStatus`, undefined],
    ]);
  });

  it('subscribes only to contract events and hands listeners the payload alone', () => {
    const listeners = new Map<string, (p: unknown) => void>();
    const api = createDesktopApi({
      invoke: async () => undefined,
      subscribe: (channel, listener) => {
        listeners.set(channel, listener);
        return () => listeners.delete(channel);
      },
    });
    const got: unknown[] = [];
    const off = api.on('navigate', (payload) => got.push(payload));
    listeners.get('parley:event:navigate')!({ path: '/live-chat/c1' });
    expect(got).toEqual([{ path: '/live-chat/c1' }]);
    off();
    expect(listeners.size).toBe(0);
    expect(() => api.on('ipc-message' as never, () => undefined)).toThrow(/Unknown desktop event/);
    expect(ipcEventNames).toContain('sync.status');
  });

  it('every channel has an argument and an answer schema', () => {
    for (const name of ipcChannelNames) {
      expect(ipcChannels[name].args, name).toBeDefined();
      expect(ipcChannels[name].result, name).toBeDefined();
    }
  });
});
