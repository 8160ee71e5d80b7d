/** `restore --from DIR`: a backup folder into an empty database and an empty file store (src/server/ops/restore.ts). */
import { loadConfig } from '../config';
import { restore } from '../ops/restore';
import { folderArgument, reportFailure } from './folder-argument';

export async function restoreCommand(argv: string[]): Promise<number> {
  const fromDir = folderArgument(argv, 'from', 'restore --from DIR');
  if (fromDir === null) return 2;
  try {
    const { manifest, pendingMigrations } = await restore(loadConfig(), { fromDir });
    const next = pendingMigrations > 0 ? `start the server: it applies the ${pendingMigrations} newer migrations first` : 'start the server';
    process.stdout.write(`Restored the backup of ${manifest.createdAt} (${manifest.fileCount} files); ${next}\n`);
    return 0;
  } catch (err) {
    return reportFailure('restore', err);
  }
}
