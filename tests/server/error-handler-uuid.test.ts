/**
 * The one error handler's last guard: when an id given as text that is no id reaches PostgreSQL anyway (a
 * repository without its own check), the caller learns the row does not exist, never a 500.
 */
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../../src/server/http/error-handler';

const pg = new PGlite();
afterAll(async () => {
  await pg.close();
});

async function appReading(text: string, type: 'uuid' | 'integer') {
  const app = Fastify();
  installErrorHandler(app);
  app.get('/row', async () => (await pg.query(`select $1::${type} as v`, [text])).rows);
  const res = await app.inject({ method: 'GET', url: '/row' });
  await app.close();
  return res;
}

describe('a database refusal of malformed text', () => {
  it('answers 404 in the error shape for text that is no uuid', async () => {
    const res = await appReading('not-an-id', 'uuid');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, message: 'Not found', error: 'Not Found' });
  });

  it('still answers 500 without details for other refusals, which are bugs to see', async () => {
    const res = await appReading('twelve', 'integer');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('twelve');
  });
});
