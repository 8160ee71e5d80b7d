// Where a user's cache lives: <userData>/cache/<uid>/ (user.sqlite, workspace-<id>.sqlite), folders 0700 and
// files 0600. What leaves when (src/main/core.ts): the user's folder on sign-out, on a revoked session and when
// another user signs in; a workspace's file on a 401/403 for that workspace; anything not opened for
// CACHE_MAX_AGE_DAYS at start-up; a workspace file over CACHE_MAX_BYTES when it is opened (it is synced anew).
import fs from 'node:fs';
import path from 'node:path';
import { safeFileId } from './sqlite';

/** A cache not used for this long is deleted at start-up (and a workspace file not synced for this long is resynced). */
export const CACHE_MAX_AGE_DAYS = 30;
/** A workspace file larger than this is deleted and synced anew when it is opened (a full sync keeps it small). */
export const CACHE_MAX_BYTES = 512 * 1024 * 1024;

export const cacheRoot = (userDataDir: string) => path.join(userDataDir, 'cache');
export const userCacheDir = (userDataDir: string, uid: string) => path.join(cacheRoot(userDataDir), safeFileId(uid));
export const userStoreFile = (userDataDir: string, uid: string) => path.join(userCacheDir(userDataDir, uid), 'user.sqlite');
export const workspaceCacheFile = (userDataDir: string, uid: string, workspaceId: string) =>
  path.join(userCacheDir(userDataDir, uid), `workspace-${safeFileId(workspaceId)}.sqlite`);

/** Removes everything cached for the user (call after closing its databases). */
export function removeUserCache(userDataDir: string, uid: string): void {
  fs.rmSync(userCacheDir(userDataDir, uid), { recursive: true, force: true });
}

/** Removes the cache of every user but `keep` (another user signs in on this computer). */
export function removeOtherUsersCaches(userDataDir: string, keep: string): void {
  const root = cacheRoot(userDataDir);
  for (const name of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    if (name !== keep) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/** Removes one workspace's cache file and its WAL (call after closing it). */
export function removeWorkspaceCache(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}

/** The newest modification time under `dir` (a cache in use is written at least on every sync). */
function lastUsed(dir: string): number {
  let newest = fs.statSync(dir).mtimeMs;
  for (const name of fs.readdirSync(dir)) newest = Math.max(newest, fs.statSync(path.join(dir, name)).mtimeMs);
  return newest;
}

/** At start-up: deletes users' caches not used for CACHE_MAX_AGE_DAYS. */
export function removeStaleCaches(userDataDir: string, now = Date.now(), maxAgeDays = CACHE_MAX_AGE_DAYS): string[] {
  const root = cacheRoot(userDataDir);
  const removed: string[] = [];
  for (const name of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    const dir = path.join(root, name);
    if (now - lastUsed(dir) > maxAgeDays * 86_400_000) {
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}

/** Whether a workspace file must be dropped before it is opened: too large, or not synced for too long. */
export function workspaceCacheExpired(file: string, lastSyncedAt: string | null, now = Date.now(), maxBytes = CACHE_MAX_BYTES): boolean {
  if (!fs.existsSync(file)) return false;
  const bytes = fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
  if (bytes > maxBytes) return true;
  return lastSyncedAt !== null && now - Date.parse(lastSyncedAt) > CACHE_MAX_AGE_DAYS * 86_400_000;
}
