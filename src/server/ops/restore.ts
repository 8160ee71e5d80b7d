/**
 * Restores a backup folder (backup.ts) into an EMPTY PostgreSQL database and an EMPTY file store. Nothing is
 * touched until every check passed: the manifest is a Parley backup's, both archives match its checksums, the
 * backup is not newer than this build's migrations, the database holds no Parley and the file store no file.
 * The database goes in as one transaction; migrations newer than the backup are applied by the server at start.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import { parleyObjectsIn } from '../db/database-state';
import { shippedMigrations } from '../db/client';
import { entriesOf, exists, fileStoreRoot } from './file-store-folder';
import { BackupManifest, backupEntries, sha256OfFile } from './manifest';
import { OpsError } from './ops-error';
import { describeDatabase, pgEnvironment } from './pg-environment';
import { runProgram } from './run-program';

export interface RestoreOptions {
  /** The backup folder made by backup. */
  fromDir: string;
  pgRestore?: string;
  tar?: string;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Migrations this build has beyond the backup's: the server applies them when it starts. */
  pendingMigrations: number;
}

export async function restore(config: Pick<Config, 'databaseUrl' | 'dataDir'>, opts: RestoreOptions): Promise<RestoreResult> {
  const databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    throw new OpsError('Restore needs PostgreSQL: set DATABASE_URL to the new, empty database to restore into (backups are made of PostgreSQL databases).');
  }
  const env = pgEnvironment(databaseUrl);
  // Without a database name pg_restore would print the dump as SQL instead of restoring it.
  if (!env.PGDATABASE) throw new OpsError('DATABASE_URL names no database (postgres://user@host:5432/database): name the new, empty one to restore into');
  const fromDir = path.resolve(opts.fromDir);
  const manifest = await verifiedManifest(fromDir);
  const shipped = shippedMigrations().length;
  if (manifest.migrationCount > shipped) {
    throw new OpsError(
      `This backup was made by a newer Parley (${manifest.parleyVersion}, ${manifest.migrationCount} migrations; this one knows ${shipped}): restore it with that version or a later one.`,
    );
  }
  const found = await parleyObjectsIn(databaseUrl).catch((err: Error) => {
    throw new OpsError(`Could not read ${describeDatabase(databaseUrl)}: ${err.message}`);
  });
  if (found.length > 0) {
    throw new OpsError(
      `${describeDatabase(databaseUrl)} is not empty (it holds ${found.slice(0, 4).join(', ')}${found.length > 4 ? ', …' : ''}): ` +
        'restore fills an empty database only. Create a new database (createdb) and point DATABASE_URL at it; nothing was restored.',
    );
  }
  const filesRoot = fileStoreRoot(config.dataDir);
  const stored = await entriesOf(filesRoot);
  if (stored.length > 0) {
    throw new OpsError(`The file store ${filesRoot} is not empty: restore fills an empty one only. Point PARLEY_DATA_DIR at a new folder; nothing was restored.`);
  }

  await runProgram({
    program: opts.pgRestore ?? 'pg_restore',
    // Owners and grants of the old server need not exist here: the restoring user owns everything.
    args: ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${env.PGDATABASE}`, path.join(fromDir, backupEntries.database)],
    env,
    failure: `pg_restore could not restore into ${describeDatabase(databaseUrl)} (the database was left as it was)`,
  });
  await fsp.mkdir(filesRoot, { recursive: true, mode: 0o700 });
  await runProgram({
    program: opts.tar ?? 'tar',
    args: ['--extract', `--file=${path.join(fromDir, backupEntries.files)}`, `--directory=${filesRoot}`, '--no-same-owner'],
    failure: `tar could not unpack the files into ${filesRoot} (the database is restored: empty that folder and unpack ${backupEntries.files} into it by hand)`,
  });
  return { manifest, pendingMigrations: shipped - manifest.migrationCount };
}

/** The folder's manifest, once it is a valid Parley manifest and both archives match its checksums. */
async function verifiedManifest(fromDir: string): Promise<BackupManifest> {
  const manifestFile = path.join(fromDir, backupEntries.manifest);
  if (!(await exists(manifestFile))) {
    throw new OpsError(`${fromDir} is not a finished Parley backup: it has no ${backupEntries.manifest}`);
  }
  let parsed: ReturnType<typeof BackupManifest.safeParse>;
  try {
    parsed = BackupManifest.safeParse(JSON.parse(await fsp.readFile(manifestFile, 'utf8')));
  } catch {
    throw new OpsError(`${manifestFile} is not JSON: the backup is damaged`);
  }
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new OpsError(`${manifestFile} is not a Parley backup manifest (${first.path.join('.') || 'manifest'}: ${first.message})`);
  }
  const manifest = parsed.data;
  for (const entry of [manifest.database, manifest.files]) {
    const file = path.join(fromDir, entry.file);
    if (!(await exists(file))) throw new OpsError(`${file} is missing: the backup is incomplete; nothing was restored`);
    if ((await sha256OfFile(file)) !== entry.sha256) {
      throw new OpsError(`${file} does not match its sha256 in ${backupEntries.manifest}: the backup is damaged or was changed; nothing was restored`);
    }
  }
  return manifest;
}
