/**
 * An event-stream client that behaves as EventSource does: on a dropped or ended stream it reconnects (here, to
 * the same proxy address) with `Last-Event-ID` set to the last id it received. It keeps every id it received, in
 * order, so a test can check that the ids are contiguous across reconnects.
 */
export interface ResumingStream {
  /** Every event id received, in order (duplicates and gaps included, if the server made any). */
  readonly ids: number[];
  /** How many times the stream was opened again after it dropped. */
  readonly reconnects: number;
  /** Whether a response is being read now. */
  readonly connected: boolean;
  close(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens `url` with the bearer token, resuming after `fromId`. */
export function openResumingStream(url: string, token: string, fromId: number): ResumingStream {
  const ids: number[] = [];
  let reconnects = 0;
  let connected = false;
  let closed = false;
  let controller = new AbortController();

  async function readOnce(): Promise<void> {
    controller = new AbortController();
    const lastId = ids.length > 0 ? ids[ids.length - 1] : fromId;
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'last-event-id': String(lastId) },
      signal: controller.signal,
    });
    if (!res.ok || !res.body) return;
    connected = true;
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = res.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(frame);
        if (id) ids.push(Number(id[1]));
      }
    }
  }

  void (async () => {
    while (!closed) {
      await readOnce().catch(() => undefined);
      connected = false;
      if (closed) return;
      reconnects++;
      await sleep(200);
    }
  })();

  return {
    ids,
    get reconnects() {
      return reconnects;
    },
    get connected() {
      return connected;
    },
    close() {
      closed = true;
      controller.abort();
    },
  };
}

/** The first place where `ids` is not `from + 1, from + 2, ...` (null when contiguous). */
export function firstGap(ids: number[], from: number): { at: number; expected: number; got: number } | null {
  for (let i = 0; i < ids.length; i++) if (ids[i] !== from + 1 + i) return { at: i, expected: from + 1 + i, got: ids[i] };
  return null;
}
