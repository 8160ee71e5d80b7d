/**
 * The log holds no credentials and no customer data from failed queries: invitation tokens in paths,
 * Meta's hub.verify_token and the stream's ?token= are masked; a failed query's bound parameters are dropped.
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openTestDatabase, testConfig } from '../support/server';
import { testVerifyToken } from '../support/sandbox-webhooks';

let app: FastifyInstance;
let dispose: () => Promise<void>;
const lines: string[] = [];

beforeAll(async () => {
  const db = await openTestDatabase();
  dispose = db.dispose;
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({
    config: testConfig({ whatsappVerifyToken: testVerifyToken }),
    database: db.database,
    logger: { level: 'info', stream },
  });
});
afterAll(async () => {
  await app?.close();
  await dispose?.();
});

const logged = () => lines.join('');

it('masks the invitation token of /auth/sign-up/{inviteToken}, hub.verify_token and ?token=', async () => {
  const inviteToken = 'InviteSecret0123456789abcdefXYZ';
  await app.inject({ method: 'POST', url: `/auth/sign-up/${inviteToken}`, payload: { email: 'a@acme-test.com', password: 'password1' } });
  await app.inject({ method: 'GET', url: `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${testVerifyToken}&hub.challenge=42` });
  await app.inject({ method: 'GET', url: '/workspace/00000000-0000-4000-8000-000000000000/events?token=StreamSecretToken' });
  expect(logged()).toContain('/auth/sign-up/[redacted]');
  expect(logged()).toContain('hub.verify_token=[redacted]');
  for (const secret of [inviteToken, testVerifyToken, 'StreamSecretToken']) expect(logged()).not.toContain(secret);
});

it('drops the bound parameters of a failed query from the logged error, keeping the SQL', async () => {
  const customerText = 'Jane Customer says her card is 4111 1111 1111 1111';
  let failure: unknown;
  try {
    await app.parley.db.db.execute(sql`select ${customerText}::int as n`);
  } catch (err) {
    failure = err;
  }
  expect(String((failure as Error).message)).toContain(customerText);
  app.log.error({ err: failure }, 'query failed');
  const line = lines.find((l) => l.includes('query failed'))!;
  expect(line).toBeTruthy();
  expect(line).toContain('select $1::int');
  expect(line).not.toContain('Jane Customer');
  expect(line).not.toContain('4111');
});
