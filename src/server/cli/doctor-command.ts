/**
 * `doctor`: is this configuration ready to serve a business? Runs every check of doctor-checks.ts, prints one
 * line each (ok, warn or FAIL, and what is wrong in words) and exits with 1 when any check failed.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { doctorChecks, type CheckResult } from './doctor-checks';

const label: Record<CheckResult['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

export async function doctor(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  parseArgs({ args, options: {}, allowPositionals: false });
  const config = loadConfig(env);
  const width = Math.max(...doctorChecks.map((c) => c.name.length));
  const counts = { ok: 0, warn: 0, fail: 0 };
  for (const check of doctorChecks) {
    const result = await check.run(config, env);
    counts[result.status]++;
    console.log(`${label[result.status]}  ${check.name.padEnd(width)}  ${result.detail}`);
  }
  const warnings = counts.warn ? `, ${counts.warn} warning${counts.warn === 1 ? '' : 's'}` : '';
  if (counts.fail) {
    console.log(`\n${counts.fail} problem${counts.fail === 1 ? '' : 's'}${warnings}: fix what FAIL says before serving customers.`);
    return 1;
  }
  console.log(`\nNo problem found${warnings}.`);
  return 0;
}
