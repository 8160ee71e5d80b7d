/**
 * Runs the operator's backup and restore commands until the server's own command line carries them:
 * `tsx scripts/ops.ts backup --out DIR`, `tsx scripts/ops.ts restore --from DIR` (configured by the environment,
 * as the server is: DATABASE_URL, PARLEY_DATA_DIR).
 */
import { backupCommand } from '../src/server/cli/backup-command';
import { restoreCommand } from '../src/server/cli/restore-command';

const commands = [backupCommand, restoreCommand];
const [name, ...argv] = process.argv.slice(2);
const command = commands.find((c) => c.name === name);
if (!command) {
  process.stderr.write(`usage: tsx scripts/ops.ts <command>\n${commands.map((c) => `  ${c.name.padEnd(8)} ${c.description}`).join('\n')}\n`);
  process.exit(2);
}
process.exit(await command.run(argv));
