/**
 * A forwarder in front of the sandbox's Graph API, one per server process, counting the messages that process
 * sent: the several-processes test learns from it which process holds a campaign's claims (and kills that one).
 */
import { type Server, createServer, request } from 'node:http';

export interface GraphForwarder {
  /** What the server process's GRAPH_API_URL should be. */
  baseUrl: string;
  /** Messages sent through it (POST .../messages), and when the last one was. */
  readonly messages: number;
  readonly lastMessageAt: number;
  close(): Promise<void>;
}

/** Forwards every request to `sandboxBaseUrl` (e.g. http://127.0.0.1:PORT/v26.0), as is. */
export async function startGraphForwarder(sandboxBaseUrl: string): Promise<GraphForwarder> {
  const target = new URL(sandboxBaseUrl);
  let messages = 0;
  let lastMessageAt = 0;
  const server: Server = createServer((req, res) => {
    const isMessage = req.method === 'POST' && /\/messages$/.test((req.url ?? '').split('?')[0]);
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (isMessage && answer.statusCode === 200) {
          messages++;
          lastMessageAt = Date.now();
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    get messages() {
      return messages;
    },
    get lastMessageAt() {
      return lastMessageAt;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
