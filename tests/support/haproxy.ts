/**
 * HAProxy in front of real server processes, for the several-processes test: a config generated into a temp dir
 * (the one docs/operations.md describes: round-robin, no stickiness, health checks on /readyz, retries on a dead
 * server, timeouts long enough for event streams), run in the foreground as a child of the test process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until } from './until';

/** Where Debian's package installs it (CI installs it with apt-get). */
const haproxyBinary = '/usr/sbin/haproxy';

export interface Proxy {
  baseUrl: string;
  config: string;
  stop(): Promise<void>;
}

/** The configuration: one frontend on 127.0.0.1:`port`, the servers' ports as one round-robin backend. */
function haproxyConfig(port: number, servers: number[]): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // An event stream is a long response: these are the idle limits between its writes (the server pings every
    // 15 s), so they must exceed the heartbeat. `timeout tunnel` covers upgraded connections the same way.
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 5s',
    // A request to a server that just died is tried again, on another server for its last try.
    '  retries 3',
    '  option redispatch',
    'frontend parley',
    `  bind 127.0.0.1:${port}`,
    '  default_backend servers',
    'backend servers',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1',
    ...servers.map((p, i) => `  server s${i + 1} 127.0.0.1:${p} check`),
    '',
  ].join('\n');
}

/** Starts HAProxy and waits until it answers /readyz through every server. */
export async function startHaproxy(port: number, servers: number[]): Promise<Proxy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  const config = haproxyConfig(port, servers);
  await writeFile(file, config);
  let output = '';
  const child: ChildProcess = spawn(haproxyBinary, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const proxy: Proxy = {
    baseUrl,
    config,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    // Consecutive answers: round-robin has passed every server.
    let answered = 0;
    await until(async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}): ${output}`);
      const ok = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
      answered = ok ? answered + 1 : 0;
      return answered >= servers.length * 2;
    }, 30_000);
  } catch (err) {
    await proxy.stop();
    throw err;
  }
  return proxy;
}
