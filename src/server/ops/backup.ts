/**
 * A backup of a PostgreSQL-backed server into one folder: the database as a pg_dump custom archive
 * (pg-boss's queue included: it lives in the same database), the local file store as a tar made by the system
 * `tar`, and manifest.json (written last, so a folder without one is an unfinished backup). The database is
 * dumped first and the files second: a file is stored before the row that names it is committed, so every file
 * the dump refers to is in the tar even while the server keeps running.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import { appliedMigrationCount } from '../db/database-state';
import { fileStoreRoot, countStoredFiles, entriesOf, exists } from './file-store-folder';
import { type BackupManifest, backupEntries, parleyVersion, sha256OfFile } from './manifest';
import { OpsError } from './ops-error';
import { describeDatabase, pgEnvironment } from './pg-environment';
import { runProgram } from './run-program';

export interface BackupOptions {
  /** The backup folder: created, or empty. */
  outDir: string;
  /** Program paths; PATH's pg_dump and tar by default. */
  pgDump?: string;
  tar?: string;
}

export interface BackupResult {
  outDir: string;
  manifest: BackupManifest;
}

export const needsPostgres =
  'Backups need PostgreSQL: DATABASE_URL is not set, so this server keeps its data in the embedded PGlite database ' +
  'under PARLEY_DATA_DIR/pgdata. Stop the server and copy the whole PARLEY_DATA_DIR folder instead, or move to PostgreSQL.';

export async function backup(config: Pick<Config, 'databaseUrl' | 'dataDir'>, opts: BackupOptions): Promise<BackupResult> {
  const databaseUrl = config.databaseUrl;
  if (!databaseUrl) throw new OpsError(needsPostgres);
  const outDir = path.resolve(opts.outDir);
  const present = await entriesOf(outDir);
  if (present.length > 0) {
    throw new OpsError(`The backup folder ${outDir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): name a new folder`);
  }
  const env = pgEnvironment(databaseUrl);
  const migrationCount = await appliedMigrationCount(databaseUrl).catch((err: Error) => {
    throw new OpsError(`Could not read ${describeDatabase(databaseUrl)}: ${err.message}`);
  });
  if (migrationCount === 0) {
    throw new OpsError(`${describeDatabase(databaseUrl)} holds no Parley data (no migration was ever applied to it): check DATABASE_URL`);
  }
  await fsp.mkdir(outDir, { recursive: true });

  const dumpFile = path.join(outDir, backupEntries.database);
  await runProgram({
    program: opts.pgDump ?? 'pg_dump',
    args: ['--format=custom', `--file=${dumpFile}`],
    env,
    failure: `pg_dump could not dump ${describeDatabase(databaseUrl)}`,
  });

  const filesRoot = fileStoreRoot(config.dataDir);
  const tarFile = path.join(outDir, backupEntries.files);
  const fileCount = await countStoredFiles(filesRoot);
  await runProgram({
    program: opts.tar ?? 'tar',
    // An absent store makes an empty archive.
    args: (await exists(filesRoot))
      ? ['--create', `--file=${tarFile}`, `--directory=${filesRoot}`, '.']
      : ['--create', `--file=${tarFile}`, '--files-from=/dev/null'],
    failure: `tar could not archive the file store ${filesRoot}`,
  });

  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    parleyVersion,
    migrationCount,
    fileCount,
    database: { file: backupEntries.database, format: 'pg_dump custom', sha256: await sha256OfFile(dumpFile) },
    files: { file: backupEntries.files, sha256: await sha256OfFile(tarFile) },
  };
  const manifestFile = path.join(outDir, backupEntries.manifest);
  await fsp.writeFile(`${manifestFile}.part`, `${JSON.stringify(manifest, null, 2)}\n`);
  await fsp.rename(`${manifestFile}.part`, manifestFile);
  return { outDir, manifest };
}
