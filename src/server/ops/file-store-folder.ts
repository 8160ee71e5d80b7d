/** The local file store's folder as backup and restore see it: where it is, what it holds. */
import fsp from 'node:fs/promises';
import path from 'node:path';

/** PARLEY_DATA_DIR/files, as src/server/storage/file-store.ts lays it out. */
export const fileStoreRoot = (dataDir: string) => path.resolve(dataDir, 'files');

/** Stored files: each upload is a file beside its `.meta.json`, so those are counted (the signing key is not a file of the store). */
export async function countStoredFiles(root: string): Promise<number> {
  let count = 0;
  const walk = async (dir: string) => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && entry.name.endsWith('.meta.json')) count++;
    }
  };
  if (await exists(root)) await walk(root);
  return count;
}

/** The folder's entries (none when it does not exist). */
export async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await fsp.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

export async function exists(p: string): Promise<boolean> {
  try {
    await fsp.access(p);
    return true;
  } catch {
    return false;
  }
}
