/** What the backup and restore commands share: their one folder option, and how a failure reaches the operator. */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { OpsError } from '../ops/ops-error';

const Folder = z.string().trim().min(1);

/** The value of `--<option> DIR` (or `--<option>=DIR`), or a usage line on stderr and null. */
export function folderArgument(argv: string[], option: string, usage: string): string | null {
  try {
    const { values } = parseArgs({ args: argv, options: { [option]: { type: 'string' } }, strict: true, allowPositionals: false });
    const folder = Folder.safeParse(values[option]);
    if (folder.success) return folder.data;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
  }
  process.stderr.write(`usage: ${usage}\n`);
  return null;
}

/** An operator's refusal is printed as it is; anything else with its message only (never a connection string). */
export function reportFailure(command: string, err: unknown): number {
  const message = err instanceof OpsError ? err.message : `${command} failed: ${(err as Error)?.message ?? String(err)}`;
  process.stderr.write(`${message}\n`);
  return 1;
}
