/**
 * GET /workspace/{workspaceId}/events: the workspace's events as server-sent events.
 *
 * - Each message: `id: <seq>`, `event: <type>`, `data: <WorkspaceEvent JSON>` (src/shared/schemas/events.ts).
 * - Resume: `Last-Event-ID` (sent by EventSource on its own reconnects) or `?lastEventId=`; the missed events
 *   are replayed from the log, then the stream goes live. Without either it starts at the newest event, so a
 *   client should open the stream before loading its lists.
 * - A comment (`: ping`) every 15 s keeps proxies from closing an idle stream.
 * - Backpressure: events are read from the log in pages and written only when the socket has drained, so a
 *   slow client holds at most one page in memory; it simply falls behind and catches up.
 * - Reset: when the resume point is older than the oldest event the log still holds (pruned after
 *   EVENTS_RETENTION_DAYS), the stream first sends `event: reset` (src/shared/schemas/events.ts) with the newest
 *   seq as its id, then goes on from there: the client reloads what it shows instead of missing changes.
 * - Position: a stream opened without a resume point first sends `event: position` (empty data) with the seq it
 *   goes on after as its id, so a client that hears no event before it disconnects can still resume from there.
 * - Access is checked like any route (token, membership) before anything is written.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import type { WorkspaceEvent } from '../../shared/schemas/events';
import { type EventHub, createEventHub } from './hub';
import { affects, onAccessLost, type StreamSubject } from './access-lost';
import { latestSeq, oldestSeq, readEvents } from '../repositories/event-log';
import { type StreamReset, streamPositionEvent } from '../../shared/schemas/events';

export interface StreamInput {
  workspaceId: string;
  request: FastifyRequest;
  reply: FastifyReply;
  lastEventId?: number;
  /**
   * The identity the stream was opened with: it ends when the ID token expires (the client reconnects with a
   * fresh one) or when `stillAllowed` (checked every `recheckMs`) says the user or membership is gone.
   */
  identity?: { expiresAt: Date; stillAllowed: (() => Promise<boolean>) & { subject?: StreamSubject } };
}

export interface Realtime {
  stream(input: StreamInput): Promise<void>;
  /** Ends every open stream (the server is closing; clients reconnect elsewhere with Last-Event-ID). */
  closeStreams(): void;
  stop(): Promise<void>;
  readonly hub: EventHub;
  readonly openStreams: number;
}

const pageSize = 500;

const frame = (e: WorkspaceEvent) => `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

function resumePoint(request: FastifyRequest, fromQuery: number | undefined): number | undefined {
  const header = request.headers['last-event-id'];
  if (typeof header === 'string' && /^\d{1,15}$/.test(header.trim())) return Number(header.trim());
  return fromQuery;
}

export function createRealtime(opts: { database: Database; log: FastifyBaseLogger; heartbeatMs?: number; recheckMs?: number }): Realtime {
  const { database, log } = opts;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const recheckMs = opts.recheckMs ?? 60_000;
  const hub = createEventHub(database, log);
  const open = new Set<() => void>();
  // whose each open stream is: a request that finds the user or membership gone ends them at once
  const subjects = new Map<() => void, StreamSubject>();
  const stopListening = onAccessLost(database, (lost) => {
    for (const [end, subject] of [...subjects]) if (affects(lost, subject)) end();
  });

  return {
    hub,
    get openStreams() {
      return open.size;
    },

    async stream({ workspaceId, request, reply, lastEventId, identity }) {
      const newest = await latestSeq(database.db, workspaceId);
      // A resume point beyond the log (a client of a reset database) starts from the newest event.
      const from = resumePoint(request, lastEventId);
      let last = Math.min(from ?? newest, newest);
      // Events after the resume point were pruned: the client cannot catch up from the log.
      const reset = last < newest && last + 1 < (await oldestSeq(database.db, workspaceId));
      if (reset) last = newest;
      const raw = reply.raw;
      let closed = false;
      let pumping = false;
      let again = false;

      const drained = () =>
        new Promise<void>((resolve) => {
          const done = () => {
            raw.off('drain', done);
            raw.off('close', done);
            resolve();
          };
          raw.on('drain', done);
          raw.on('close', done);
        });

      const pump = async (): Promise<void> => {
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        try {
          do {
            again = false;
            for (;;) {
              const page = await readEvents(database.db, workspaceId, last, pageSize);
              for (const event of page) {
                if (closed) return;
                const ok = raw.write(frame(event));
                last = event.seq;
                if (!ok) await drained();
              }
              if (page.length < pageSize || closed) break;
            }
          } while (again && !closed);
        } catch (err) {
          // The client reconnects with Last-Event-ID and is replayed what it missed.
          request.log.warn({ err }, 'event stream failed; closing it');
          end();
        } finally {
          pumping = false;
        }
      };

      // Subscribed before the first read: an event appended meanwhile is either read now or notified.
      const unsubscribe = await hub.subscribe(workspaceId, (seq) => {
        if (seq === undefined || seq > last) void pump();
      });
      // Presence signals: written as they come, without an id (they are not in the log to resume from).
      const unsubscribePresence = hub.subscribePresence(workspaceId, (json) => {
        if (!closed && !raw.writableNeedDrain) raw.write(`event: presence\ndata: ${json}\n\n`);
      });
      const heartbeat = setInterval(() => {
        if (!raw.writableNeedDrain) raw.write(': ping\n\n');
      }, heartbeatMs);
      heartbeat.unref();
      const identityTimers = identity ? watchIdentity(identity, recheckMs, () => end()) : [];

      const cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        identityTimers.forEach(clearTimeout);
        unsubscribe();
        unsubscribePresence();
        open.delete(end);
        subjects.delete(end);
      };
      function end() {
        cleanup();
        if (!raw.writableEnded) raw.end();
      }
      open.add(end);
      const subject = identity?.stillAllowed.subject;
      if (subject) subjects.set(end, subject);
      raw.on('close', cleanup);
      reply.hijack();
      // The client may have gone while we subscribed: 'close' has then fired already.
      if (request.raw.socket?.destroyed) return end();

      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      // Tells EventSource how soon to reconnect; also the first bytes, so a client knows it is subscribed.
      raw.write('retry: 3000\n\n');
      if (reset) {
        const data: StreamReset = { reason: 'pruned', seq: newest };
        raw.write(`id: ${newest}\nevent: reset\ndata: ${JSON.stringify(data)}\n\n`);
      } else if (from === undefined) {
        raw.write(`id: ${last}\nevent: ${streamPositionEvent}\ndata:\n\n`);
      }
      await pump();
      log.debug({ workspaceId, last }, 'event stream open');
    },

    closeStreams() {
      for (const end of [...open]) end();
    },

    async stop() {
      stopListening();
      for (const end of [...open]) end();
      await hub.stop();
    },
  };
}

/** Ends a stream when its token expires, or when a periodic check finds the user or the membership gone. */
function watchIdentity(identity: NonNullable<StreamInput['identity']>, recheckMs: number, end: () => void): NodeJS.Timeout[] {
  // setTimeout holds at most 2^31-1 ms; ID tokens live an hour.
  const expiry = setTimeout(end, Math.min(Math.max(0, identity.expiresAt.getTime() - Date.now()), 2 ** 31 - 1));
  const recheck = setInterval(() => {
    identity.stillAllowed().then(
      (allowed) => allowed || end(),
      () => end(),
    );
  }, recheckMs);
  expiry.unref();
  recheck.unref();
  return [expiry, recheck];
}
