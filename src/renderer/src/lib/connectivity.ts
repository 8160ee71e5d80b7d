/**
 * Whether the Parley server can be reached. Web mode is always "online" (it just uses the API). In the desktop
 * app, main reports it (`sync.status`) and a request that cannot reach the server says so at once; while
 * offline the screens read the local cache (lib/offline-data.ts) and changes are disabled with the reason.
 */
import { create } from 'zustand';

export interface ConnectivityState {
  online: boolean;
  /** When the local cache last finished a full sync (shown in the offline banner). */
  lastSyncedAt: string | null;
  setOnline: (online: boolean, lastSyncedAt?: string | null) => void;
}

export const useConnectivity = create<ConnectivityState>()((set) => ({
  online: true,
  lastSyncedAt: null,
  setOnline: (online, lastSyncedAt) => set((s) => ({ online, lastSyncedAt: lastSyncedAt === undefined ? s.lastSyncedAt : lastSyncedAt })),
}));

export const offlineReason = 'You are offline: this comes back when Parley reconnects';

/** Why changes are disabled right now (null: they are not). */
export function useOfflineReason(): string | null {
  return useConnectivity((s) => (s.online ? null : offlineReason));
}
