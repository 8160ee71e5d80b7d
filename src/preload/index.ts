// Preload (sandboxed, built as CommonJS): exposes the IPC contract as window.desktop and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopApi } from './api';

contextBridge.exposeInMainWorld(
  'desktop',
  createDesktopApi({
    invoke: (channel, arg) => ipcRenderer.invoke(channel, arg),
    subscribe: (channel, listener) => {
      const handler = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, handler);
      return () => void ipcRenderer.removeListener(channel, handler);
    },
  }),
);
