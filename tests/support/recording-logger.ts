import type { FastifyBaseLogger } from 'fastify';

/** One line a module logged: its level, message and object (a message-only call has an empty object). */
export interface LoggedLine {
  level: string;
  msg: string;
  obj: Record<string, unknown>;
}

/**
 * A Fastify logger that records every line into `lines` (shared by its children), for unit-level tests that assert
 * what a module logs (the rules files of the mutation score: ingest, outbound, the campaign runner).
 */
export function recordingLogger(lines: LoggedLine[]): FastifyBaseLogger {
  const at =
    (level: string) =>
    (obj: unknown, msg?: string): void => {
      if (typeof obj === 'string') lines.push({ level, msg: obj, obj: {} });
      else lines.push({ level, msg: msg ?? '', obj: obj as Record<string, unknown> });
    };
  const log = { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), fatal: at('fatal'), level: 'debug' } as Record<string, unknown>;
  log.child = () => log;
  return log as unknown as FastifyBaseLogger;
}
