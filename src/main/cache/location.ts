// Where a user's cache lives: <userData>/cache/<uid>/ (user.sqlite, workspace-<id>.sqlite). Sign-out removes
// the whole folder.
import fs from 'node:fs';
import path from 'node:path';
import { safeFileId } from './sqlite';

export const userCacheDir = (userDataDir: string, uid: string) => path.join(userDataDir, 'cache', safeFileId(uid));
export const userStoreFile = (userDataDir: string, uid: string) => path.join(userCacheDir(userDataDir, uid), 'user.sqlite');
export const workspaceCacheFile = (userDataDir: string, uid: string, workspaceId: string) =>
  path.join(userCacheDir(userDataDir, uid), `workspace-${safeFileId(workspaceId)}.sqlite`);

/** Removes everything cached for the user (call after closing its databases). */
export function removeUserCache(userDataDir: string, uid: string): void {
  fs.rmSync(userCacheDir(userDataDir, uid), { recursive: true, force: true });
}
