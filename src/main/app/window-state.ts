// Window size and position, remembered in <userData>/window-state.json and restored only if the window would
// still be visible on one of the current displays (a monitor may have gone since).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const WindowState = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof WindowState>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MIN_VISIBLE = 100;

function overlaps(a: Rect, b: Rect): boolean {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w >= MIN_VISIBLE && h >= MIN_VISIBLE;
}

export function windowStateFile(userDataDir: string): string {
  return path.join(userDataDir, 'window-state.json');
}

/** The remembered state, if it still fits one of `displays` (their work areas). */
export function loadWindowState(file: string, displays: readonly Rect[]): WindowState | null {
  try {
    const state = WindowState.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return displays.some((d) => overlaps(state, d)) ? state : null;
  } catch {
    return null;
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  const parsed = WindowState.safeParse(state);
  if (!parsed.success) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(parsed.data));
  fs.renameSync(`${file}.tmp`, file);
}

/** Tray tooltip for an unread count. */
export function trayTooltip(unread: number): string {
  if (unread <= 0) return 'Parley';
  return `Parley: ${unread} unread conversation${unread === 1 ? '' : 's'}`;
}
