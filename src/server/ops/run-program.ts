/** Runs a system program (pg_dump, pg_restore, tar) to its end; a failure carries the program's own words. */
import { spawn } from 'node:child_process';
import { OpsError } from './ops-error';

export interface ProgramRun {
  program: string;
  args: string[];
  /** Added to the inherited environment (the PG* variables). */
  env?: NodeJS.ProcessEnv;
  /** What the operator is told failed, e.g. "pg_dump could not dump the database". */
  failure: string;
}

export function runProgram(run: ProgramRun): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.program, run.args, { env: { ...process.env, ...run.env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 8_000) stderr += chunk;
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      reject(new OpsError(err.code === 'ENOENT' ? `${run.program} was not found: install the PostgreSQL client programs (version 15 or newer) or put them on PATH` : `${run.failure}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      const said = redact(stderr.trim(), run.env?.PGPASSWORD);
      reject(new OpsError(`${run.failure} (${signal ?? `exit code ${code}`})${said ? `:\n${said}` : ''}`));
    });
  });
}

/** Programs do not print passwords, but a password that happens to occur in their words is masked all the same. */
function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('***') : text;
}
