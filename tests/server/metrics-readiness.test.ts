/**
 * /readyz as a load balancer sees it: ready while the database, the job workers and the event stream's listener
 * all work, 503 naming the part that does not.
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/server/db/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, onPostgres, type TestApp } from '../support/server';

let ta: TestApp;
beforeAll(async () => {
  ta = await buildTestApp();
});
afterAll(async () => {
  await ta?.close();
});

const readyz = () => ta.call('GET', '/readyz');

/** Asks /readyz every few milliseconds until `done` accepts an answer (or `ms` have passed: that answer). */
async function pollReadyz(done: (status: number, failing: string[]) => boolean, ms: number) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await readyz();
    const failing: string[] = res.statusCode === 503 ? res.json().failing : [];
    if (done(res.statusCode, failing) || Date.now() > until) return { status: res.statusCode, failing };
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('/readyz', () => {
  it.runIf(onPostgres)("answers 503 naming the stream while the listener's connection is down, and 200 once it is back", async () => {
    expect((await readyz()).statusCode).toBe(200);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${rowsOf<{ db: string }>(await ta.db.execute(sql`select current_database() as db`))[0].db}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'parley-events'",
      );
      expect(killed.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    const down = await pollReadyz((status) => status === 503, 2000);
    expect(down).toEqual({ status: 503, failing: ['stream'] });
    // The listener reconnects by itself.
    const back = await pollReadyz((status) => status === 200, 10_000);
    expect(back.status).toBe(200);
  });

  it('answers 200 while everything works, then 503 naming the job queue once it is stopped, and the stream once its listener is', async () => {
    const ready = await readyz();
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', database: onPostgres ? 'postgres' : 'pglite' });

    await ta.app.parley.jobs.stop();
    const jobsDown = await readyz();
    expect(jobsDown.statusCode).toBe(503);
    expect(jobsDown.json()).toEqual({ status: 'job workers not running', failing: ['jobs'] });

    await ta.app.parley.services.deps.realtime.hub.stop();
    const bothDown = await readyz();
    expect(bothDown.statusCode).toBe(503);
    expect(bothDown.json()).toEqual({ status: 'job workers not running', failing: ['jobs', 'stream'] });
  });
});
