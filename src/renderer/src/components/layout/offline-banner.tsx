import { CloudOff, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useConnectivity } from '../../lib/connectivity';
import { desktopCall } from '../../lib/desktop';
import { Button } from '../ui/button';

function since(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return ` Last synced ${d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.`;
}

/**
 * The desktop app's "you are offline" strip above every signed-in screen: what is shown comes from the local
 * cache, read-only. It goes away by itself when the server answers again.
 */
export function OfflineBanner() {
  const online = useConnectivity((s) => s.online);
  const lastSyncedAt = useConnectivity((s) => s.lastSyncedAt);
  const [retrying, setRetrying] = useState(false);
  if (online) return null;
  const retry = async () => {
    setRetrying(true);
    try {
      const status = await desktopCall('sync.retry');
      useConnectivity.getState().setOnline(status.online, status.lastSyncedAt);
    } catch {
      // Still offline: the banner stays.
    } finally {
      setRetrying(false);
    }
  };
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="offline-banner"
      className="flex shrink-0 items-center gap-3 border-b border-warning-text/30 bg-warning-soft px-4 py-2 text-[13px] text-warning-text"
    >
      <CloudOff className="size-4 shrink-0" aria-hidden />
      <p className="min-w-0 flex-1">
        <strong className="font-semibold">You are offline.</strong> Showing the conversations and contacts saved on this
        computer; sending, assigning and editing come back when Parley reconnects.{since(lastSyncedAt)}
      </p>
      <Button variant="secondary" size="sm" onClick={() => void retry()} loading={retrying}>
        {!retrying && <RefreshCw aria-hidden />} Retry
      </Button>
    </div>
  );
}
