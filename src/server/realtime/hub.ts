/**
 * Fan-out of workspace events to this process's streams. One LISTEN per server process (PostgreSQL: a
 * dedicated client that reconnects; PGlite: its own `listen`) feeds subscribers keyed by workspace. A NOTIFY
 * only says "workspace W has reached seq n": subscribers read what they miss from the event log, so a NOTIFY
 * lost while the connection was down is recovered on reconnect (every subscriber is told to catch up).
 */
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../db/client';
import { eventChannel } from '../repositories/event-log';

export interface Subscriber {
  /** A new event of the workspace (seq), or undefined: "catch up, something may have been missed". */
  (seq: number | undefined): void;
}

export interface EventHub {
  /** Resolves once notifications are being received. */
  subscribe(workspaceId: string, fn: Subscriber): Promise<() => void>;
  /**
   * Presence signals of the workspace: JSON text published with realtime/presence.ts on the same
   * channel (`<workspaceId>:p:<json>`), never stored. Call after `subscribe` (which starts the listener).
   */
  subscribePresence(workspaceId: string, fn: (json: string) => void): () => void;
  stop(): Promise<void>;
  /**
   * Whether notifications are being received (readiness): starts the listener if no stream has yet, and answers
   * false while its connection is down (reconnecting) or the hub is stopped.
   */
  listening(): Promise<boolean>;
  /** Subscribers right now (tests check clean-up on disconnect). */
  readonly size: number;
}

interface Listener {
  stop(): Promise<void>;
  connected(): boolean;
}

export function createEventHub(database: Database, log: FastifyBaseLogger): EventHub {
  const subscribers = new Map<string, Set<Subscriber>>();
  let listener: Promise<Listener> | undefined;
  let stopped = false;

  const presence = new Map<string, Set<(json: string) => void>>();
  const deliver = (payload: string | undefined) => {
    const p = payload ?? '';
    const presenceAt = p.indexOf(':p:');
    if (presenceAt > 0) {
      for (const fn of presence.get(p.slice(0, presenceAt)) ?? []) fn(p.slice(presenceAt + 3));
      return;
    }
    const [workspaceId, seq] = p.split(':');
    const n = Number(seq);
    if (!workspaceId || !Number.isInteger(n)) return;
    for (const fn of subscribers.get(workspaceId) ?? []) fn(n);
  };
  const catchUpAll = () => {
    for (const set of subscribers.values()) for (const fn of set) fn(undefined);
  };

  async function listenPglite(): Promise<Listener> {
    if (database.raw.kind !== 'pglite') throw new Error('not PGlite');
    const pglite = database.raw.client;
    const unlisten = await pglite.listen(eventChannel, deliver);
    return { stop: () => unlisten(), connected: () => !pglite.closed };
  }

  async function listenPostgres(url: string): Promise<Listener> {
    let client: pg.Client | undefined;
    let closing = false;
    let retryMs = 100;
    let timer: NodeJS.Timeout | undefined;

    const connect = async (): Promise<void> => {
      const c = new pg.Client({ connectionString: url, application_name: 'parley-events' });
      c.on('notification', (msg) => deliver(msg.payload));
      c.on('error', (err) => log.warn({ err }, 'event listener connection failed; reconnecting'));
      c.on('end', () => {
        if (client !== c || closing) return;
        client = undefined;
        schedule();
      });
      await c.connect();
      await c.query(`LISTEN ${eventChannel}`);
      client = c;
      retryMs = 100;
    };
    const schedule = () => {
      if (closing || timer) return;
      timer = setTimeout(async () => {
        timer = undefined;
        try {
          await connect();
          // Events appended while we were not listening: every stream reads from where it is.
          catchUpAll();
        } catch (err) {
          log.warn({ err }, 'event listener reconnect failed');
          retryMs = Math.min(retryMs * 2, 5000);
          schedule();
        }
      }, retryMs);
    };

    await connect();
    return {
      connected: () => client !== undefined && !closing,
      async stop() {
        closing = true;
        if (timer) clearTimeout(timer);
        await client?.end().catch(() => undefined);
      },
    };
  }

  /** The listener, started on the first call, so a server (or a test) that streams nothing holds no extra connection. */
  async function started(): Promise<Listener> {
    if (stopped) throw new Error('The event hub is stopped');
    listener ??= database.raw.kind === 'pglite' ? listenPglite() : listenPostgres(database.raw.url);
    try {
      return await listener;
    } catch (err) {
      listener = undefined;
      throw err;
    }
  }

  return {
    get size() {
      let n = 0;
      for (const set of subscribers.values()) n += set.size;
      return n;
    },

    async subscribe(workspaceId, fn) {
      await started();
      let set = subscribers.get(workspaceId);
      if (!set) subscribers.set(workspaceId, (set = new Set()));
      set.add(fn);
      return () => {
        set.delete(fn);
        if (set.size === 0 && subscribers.get(workspaceId) === set) subscribers.delete(workspaceId);
      };
    },

    subscribePresence(workspaceId, fn) {
      let set = presence.get(workspaceId);
      if (!set) presence.set(workspaceId, (set = new Set()));
      set.add(fn);
      return () => {
        set.delete(fn);
        if (set.size === 0 && presence.get(workspaceId) === set) presence.delete(workspaceId);
      };
    },

    async listening() {
      if (stopped) return false;
      return started().then(
        (l) => l.connected(),
        () => false,
      );
    },

    async stop() {
      stopped = true;
      subscribers.clear();
      presence.clear();
      const l = listener;
      listener = undefined;
      if (l) await (await l.catch(() => undefined))?.stop();
    },
  };
}
