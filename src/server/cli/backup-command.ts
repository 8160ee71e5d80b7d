/** `backup --out DIR`: the database and the file store into a new folder (src/server/ops/backup.ts). */
import { loadConfig } from '../config';
import { backup } from '../ops/backup';
import { folderArgument, reportFailure } from './folder-argument';

export const backupCommand = {
  name: 'backup',
  description: 'Back up the PostgreSQL database and the file store into a new folder (--out DIR)',
  async run(argv: string[]): Promise<number> {
    const outDir = folderArgument(argv, 'out', 'backup --out DIR');
    if (outDir === null) return 2;
    try {
      const { outDir: folder, manifest } = await backup(loadConfig(), { outDir });
      process.stdout.write(
        `Backed up Parley ${manifest.parleyVersion} (${manifest.migrationCount} migrations, ${manifest.fileCount} files) into ${folder}\n`,
      );
      return 0;
    } catch (err) {
      return reportFailure('backup', err);
    }
  },
};
