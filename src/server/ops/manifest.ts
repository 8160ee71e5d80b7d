/** The manifest of a backup folder: what it holds, by whom it was made, and the checksums restore verifies first. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import packageJson from '../../../package.json';

/** The backup folder's entries. */
export const backupEntries = { manifest: 'manifest.json', database: 'database.dump', files: 'files.tar' } as const;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in hex');

export const BackupManifest = z.object({
  format: z.literal(1),
  createdAt: z.iso.datetime(),
  parleyVersion: z.string().min(1),
  /** Migrations applied to the database when it was dumped: a restore into an older Parley is refused. */
  migrationCount: z.number().int().min(0),
  /** Files of the store in files.tar (the signing key of links and each file's metadata not counted). */
  fileCount: z.number().int().min(0),
  database: z.object({ file: z.literal(backupEntries.database), format: z.literal('pg_dump custom'), sha256: sha256Hex }),
  files: z.object({ file: z.literal(backupEntries.files), sha256: sha256Hex }),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

export const parleyVersion: string = packageJson.version;

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}
