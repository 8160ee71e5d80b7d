#!/usr/bin/env node
/**
 * The server's command line, `parley-server <command>` (the production bundle: `node dist/server/server.js`).
 * A command is one line of the table below: its summary and the function that runs it with the arguments after
 * its name and answers the exit code.
 */
import { z } from 'zod';
import { backupCommand } from './backup-command';
import { doctor } from './doctor-command';
import { migrate } from './migrate-command';
import { restoreCommand } from './restore-command';
import { serve } from './serve-command';
import { UsageError } from './usage-error';

type Command = { summary: string; run: (args: string[]) => Promise<number> };

const commands: Record<string, Command> = {
  serve: { summary: 'migrate, then serve HTTP and run the job workers (--no-jobs: HTTP only; --jobs-only: workers only)', run: serve },
  migrate: { summary: 'apply pending database migrations and exit (safe to run beside starting servers)', run: migrate },
  doctor: { summary: 'check the configuration and what it points at; exit code 1 when something is wrong', run: doctor },
  backup: { summary: 'back up the PostgreSQL database and the file store into a new folder (--out DIR)', run: backupCommand },
  restore: { summary: 'restore a backup folder (--from DIR) into an empty PostgreSQL database and an empty file store', run: restoreCommand },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return ['Usage: parley-server <command> [flags]', '', 'Commands:', ...lines, '', 'Configuration comes from the environment (.env.example lists every name).'].join('\n');
}

/** A command line's error in words: flags the command does not know, or a configuration value that is invalid. */
function describe(err: unknown): { message: string; code: number } | undefined {
  if (err instanceof UsageError) return { message: err.message, code: 2 };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return { message: (err as Error).message, code: 2 };
  if (err instanceof z.ZodError) return { message: `the configuration is invalid:\n${z.prettifyError(err)}`, code: 1 };
  return undefined;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    console.error(`parley-server: unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(args);
  } catch (err) {
    const known = describe(err);
    if (!known) throw err;
    console.error(`parley-server ${name}: ${known.message}`);
    if (known.code === 2) console.error(`\n${usage()}`);
    return known.code;
  }
}

process.exit(await main(process.argv.slice(2)));
