/** CPU time measurements shared by the benchmarks (run.ts skips files named lib*). */
import fs from 'node:fs';
import pg from 'pg';

/**
 * CPU seconds of this database's server processes (PostgreSQL runs on this machine): sampled every 250 ms so
 * that backends which exit are still counted. With the machine shared (load far above its cores), CPU time
 * says what the work costs better than wall time does.
 */
export function backendCpu(url: string) {
  const tick = 100; // USER_HZ on Linux
  const base = new Map<number, number>();
  const last = new Map<number, number>();
  const client = new pg.Client({ connectionString: url });
  const read = (pid: number) => {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) / tick;
    } catch {
      return undefined;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const sample = async () => {
    const res = await client.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    for (const { pid } of res.rows as { pid: number }[]) {
      const v = read(pid);
      if (v === undefined) continue;
      if (!base.has(pid)) base.set(pid, last.has(pid) ? last.get(pid)! : v);
      last.set(pid, v);
    }
  };
  return {
    async start() {
      await client.connect();
      await sample();
      // Backends already running count from now on.
      for (const [pid, v] of last) base.set(pid, v);
      let busy = false;
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        sample()
          .catch(() => undefined)
          .finally(() => {
            busy = false;
          });
      }, 250);
    },
    async stop(): Promise<number> {
      clearInterval(timer);
      await new Promise((r) => setTimeout(r, 300));
      await sample();
      await client.end();
      let total = 0;
      for (const [pid, v] of last) total += v - (base.get(pid) ?? v);
      return total;
    },
  };
}
