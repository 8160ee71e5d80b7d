// `npm start` / `npm run dev` with a new data directory while another Parley stack shares the Auth emulator:
// the demo seed recovers (the demo identity gets a workspace in this database too) instead of failing with
// "demo sign-up failed: 409 ... already exists", and a start that fails says so in one line, not a stack trace.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { signInWithPassword } from '../../scripts/lib/identity-rest';
import { demoLogin, ensureDemo } from '../../scripts/lib/demo-seed';
import { buildTestApp, emulatorHost, type TestApp } from '../support/server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const stacks: TestApp[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.close();
});

describe('demo seed on a shared Auth emulator', () => {
  it('a second stack (its own database, same emulator) gets its own demo workspace for the same login', async () => {
    // a login of this test's own, so parallel runs and a developer's npm start never collide
    const login = { ...demoLogin, email: `demo-${randomUUID()}@parley-demo.com` };
    const first = await buildTestApp();
    const second = await buildTestApp();
    stacks.push(first, second);

    const a = await ensureDemo(first.app, emulatorHost(), 'demo-parley', undefined, login);
    expect(a.created).toBe(true);
    const b = await ensureDemo(second.app, emulatorHost(), 'demo-parley', undefined, login);
    expect(b.created).toBe(true);
    expect(b.workspaceId).not.toBe(a.workspaceId);

    // the demo login works on both stacks, each showing its own demo workspace with the seeded data
    const { idToken } = await signInWithPassword(emulatorHost(), login.email, login.password);
    for (const [stack, workspaceId] of [[first, a.workspaceId], [second, b.workspaceId]] as const) {
      const me = await stack.call('GET', '/auth/me', { token: idToken });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ currentWorkspaceId: workspaceId });
      const attributes = await stack.call('GET', `/workspace/${workspaceId}/attributes`, { token: idToken });
      expect(attributes.json().items.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['plan', 'orders', 'vip']));
    }

    // and a restart of the second stack finds its demo as it left it
    expect(await ensureDemo(second.app, emulatorHost(), 'demo-parley', undefined, login)).toMatchObject({ created: false, workspaceId: b.workspaceId });
  }, 300_000);
});

describe('a start-up failure', () => {
  it('prints one clear line, no stack trace', () => {
    const notADirectory = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-start-')), 'file');
    fs.writeFileSync(notADirectory, 'not a directory');
    const result = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/start.ts', '--no-desktop'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, PARLEY_DATA_DIR: notADirectory, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(), PORT: '0', LOG_LEVEL: 'warn' },
    });
    expect(result.status).toBe(1);
    const errors = result.stderr.trim().split('\n').filter((l) => l.trim());
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^\[parley\] cannot start: E(EXIST|NOTDIR): /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});
