/**
 * The inbound benchmark's load generator (signed webhook posts over keep-alive HTTP, a bounded number in flight)
 * and its transport floor: the same posts to a bare node:http server that only verifies and parses them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { verifyWebhookSignature } from '../../src/server/whatsapp/signature';
import { signWebhookBody } from '../support/sandbox-webhooks';
import { WEBHOOK_PATH } from '../../src/server/whatsapp/webhook-path';

export const appSecret = 'bench-app-secret';
export const phoneNumberId = '100000000000001';

export function delivery(from: string, name: string, wamid: string, text: string) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '16505550100', phone_number_id: phoneNumberId },
              // As Meta sends them since 2026: a business-scoped user id on every message.
              contacts: [{ profile: { name }, wa_id: from, user_id: `US.${from}` }],
              messages: [{ from, from_user_id: `US.${from}`, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  };
}

/** Posts one signed delivery; answers the HTTP status and the time to the answer. */
export function post(agent: http.Agent, port: number, body: string): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: WEBHOOK_PATH,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-hub-signature-256': signWebhookBody(appSecret, body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `count` tasks with at most `concurrency` at once. */
export async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

export interface TransportFloor {
  /** Until every body was answered, ms. */
  ms: number;
  /** CPU of this process (both ends of the HTTP) over the run, seconds. */
  nodeS: number;
  answerTimes: number[];
  failed: number;
}

/**
 * The HTTP transport alone: the same signed bodies, over a keep-alive client of its own with the same limits, to
 * a bare node:http server in this process that reads the body, verifies its HMAC, parses its JSON and answers 200
 * (no framework, no database). What the end-to-end path can reach at best with the load generator in process.
 */
export async function transportFloor(bodies: string[], concurrency: number): Promise<TransportFloor> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let status = 200;
      if (!verifyWebhookSignature(appSecret, raw, req.headers['x-hub-signature-256'])) status = 401;
      else {
        try {
          JSON.parse(raw.toString('utf8'));
        } catch {
          status = 400;
        }
      }
      const answer = status === 200 ? '{"success":true}' : '{}';
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    // The same warm-up as the end-to-end run: connections and the JIT.
    await pool(Math.min(200, bodies.length), concurrency, (i) => post(agent, port, bodies[i]));
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const answers = await pool(bodies.length, concurrency, (i) => post(agent, port, bodies[i]));
    const ms = performance.now() - start;
    const cpu = process.cpuUsage(cpuBefore);
    return {
      ms,
      nodeS: (cpu.user + cpu.system) / 1e6,
      answerTimes: answers.map((a) => a.ms),
      failed: answers.filter((a) => a.status !== 200).length,
    };
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
