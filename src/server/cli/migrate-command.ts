/**
 * `migrate`: applies the migrations shipped with this build and exits. On PostgreSQL under the migration lock
 * (db/client.ts): processes started together (a deploy's migrate step beside starting servers) migrate once.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase, shippedMigrations } from '../db/client';

export async function migrate(args: string[]): Promise<number> {
  parseArgs({ args, options: {}, allowPositionals: false });
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata'), poolSize: 2 });
  try {
    const applied = await database.migrate();
    const total = await database.appliedMigrationCount();
    const where = database.kind === 'postgres' ? 'PostgreSQL' : `PGlite under ${config.dataDir}`;
    console.log(
      applied
        ? `Applied ${applied} migration${applied === 1 ? '' : 's'} to ${where}; ${total} of ${shippedMigrations().length} are applied.`
        : `${where} is up to date: all ${total} migrations were already applied.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}
