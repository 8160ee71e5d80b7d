/** `backup --out DIR`: the database and the file store into a new folder (src/server/ops/backup.ts). */
import { loadConfig } from '../config';
import { backup } from '../ops/backup';
import { folderArgument, reportFailure } from './folder-argument';

export async function backupCommand(argv: string[]): Promise<number> {
  const outDir = folderArgument(argv, 'out', 'backup --out DIR');
  if (outDir === null) return 2;
  try {
    const config = loadConfig();
    const { outDir: folder, manifest } = await backup(config, { outDir });
    process.stdout.write(
      `Backed up Parley ${manifest.parleyVersion} (${manifest.migrationCount} migrations, ${manifest.fileCount} files) into ${folder}\n`,
    );
    // With object storage the files live in the bucket, which this folder does not copy.
    if (config.s3) {
      process.stdout.write(`Files are in the S3 bucket ${config.s3.bucket} and are not in this backup: keep them with the bucket's versioning or replication.\n`);
    }
    return 0;
  } catch (err) {
    return reportFailure('backup', err);
  }
}
