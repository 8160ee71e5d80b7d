/**
 * The desktop app's own facts (`app.info` over IPC): version, platform, and whether the session is kept only for
 * this run because no OS keychain answered. Web mode has none.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { desktopCall, isDesktop } from '../desktop';

export const desktopAppInfoQuery = queryOptions({
  queryKey: ['desktop', 'app-info'],
  queryFn: () => desktopCall('app.info'),
  staleTime: Infinity,
});

export function useDesktopAppInfo() {
  return useQuery({ ...desktopAppInfoQuery, enabled: isDesktop() });
}
