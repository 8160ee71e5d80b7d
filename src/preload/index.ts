// Preload (sandboxed, built as CommonJS). For now it only tells the renderer that it runs inside
// the desktop app; the typed IPC contract from src/shared will be exposed here as window.desktop.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('desktop', {
  platform: process.platform,
  versions: {
    electron: process.versions.electron,
    chrome: process.versions.chrome,
    node: process.versions.node,
  },
});
