/** doctor's judgements, one check at a time: what passes for a production server and what it says is wrong. */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { doctorChecks } from '../../src/server/cli/doctor-checks';

async function judge(name: string, env: Record<string, string>) {
  const check = doctorChecks.find((c) => c.name === name);
  if (!check) throw new Error(`no check ${name}`);
  return check.run(loadConfig(env as NodeJS.ProcessEnv), env as NodeJS.ProcessEnv);
}

describe('doctor', () => {
  it.each([
    ['https://parley.acme.com', 'ok', 'is a public https address'],
    ['http://parley.acme.com', 'fail', 'is not https'],
    ['https://localhost:4000', 'fail', 'is not a public host name'],
    ['https://parley.internal', 'fail', 'is not a public host name'],
    ['https://10.1.2.3', 'fail', 'is a private or loopback address'],
    ['https://[::1]', 'fail', 'is a private or loopback address'],
    ['parley.acme.com', 'fail', 'is not a valid URL'],
  ])('PUBLIC_URL %s: %s', async (url, status, words) => {
    const result = await judge('PUBLIC_URL', { PUBLIC_URL: url });
    expect(result.status).toBe(status);
    expect(result.detail).toContain(words);
  });

  it('refuses a missing, demo or emulated Firebase project and accepts a real one', async () => {
    expect(await judge('Firebase project', {})).toMatchObject({ status: 'fail', detail: expect.stringContaining('FIREBASE_PROJECT_ID is not set') });
    expect(await judge('Firebase project', { FIREBASE_PROJECT_ID: 'demo-parley' })).toMatchObject({ status: 'fail', detail: expect.stringContaining('a demo project') });
    const emulated = await judge('Firebase project', { FIREBASE_PROJECT_ID: 'acme-prod', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    expect(emulated).toMatchObject({ status: 'fail', detail: expect.stringContaining('would trust the Auth emulator') });
    expect(await judge('Firebase project', { FIREBASE_PROJECT_ID: 'acme-prod' })).toEqual({ status: 'ok', detail: 'Firebase project acme-prod.' });
  });

  it('warns about an app secret that is not shaped like Meta\'s, and a short SECRETS_KEY', async () => {
    expect((await judge('webhook app secret', { WHATSAPP_APP_SECRET: 'hunter2' })).status).toBe('warn');
    expect((await judge('webhook app secret', { WHATSAPP_APP_SECRET: '0123456789abcdef0123456789ABCDEF' })).status).toBe('ok');
    expect(await judge('SECRETS_KEY', { SECRETS_KEY: 'short' })).toMatchObject({ status: 'warn', detail: expect.stringContaining('is short (5 characters)') });
  });

  it('connects to SMTP_URL without sending: a listening server passes, a refused port fails in words', async () => {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const reached = await judge('SMTP', { SMTP_URL: `smtp://user:s3cret@127.0.0.1:${port}` });
      expect(reached).toMatchObject({ status: 'ok', detail: expect.stringContaining(`127.0.0.1:${port} accepts connections`) });
      expect(reached.detail).not.toContain('s3cret');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const refused = await judge('SMTP', { SMTP_URL: `smtp://127.0.0.1:${port}` });
    expect(refused).toMatchObject({ status: 'fail', detail: expect.stringContaining('nothing accepts connections there') });
    expect((await judge('SMTP', {})).status).toBe('warn');
  });
});
