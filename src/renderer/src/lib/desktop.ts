// What the preload exposes as window.desktop today (src/preload/index.ts). It is replaced by the
// typed IPC contract from src/shared when that lands. In web mode there is no window.desktop.
export interface DesktopBridge {
  platform: string;
  versions: { electron: string; chrome: string; node: string };
}

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}

export function getDesktop(): DesktopBridge | undefined {
  return window.desktop;
}
