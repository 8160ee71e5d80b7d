import { useEffect, useState } from 'react';
import { customerWindow } from '../utils/window';

/**
 * The 24-hour window from the customer's last message, re-evaluated when it is due to close, so the composer
 * switches to templates without a reload.
 */
export function useOpenWindow(inbound: string | null) {
  const [now, setNow] = useState(() => new Date());
  const w = customerWindow(inbound, now);
  const closesAtMs = w.open ? (w.closesAt?.getTime() ?? null) : null;
  useEffect(() => {
    if (closesAtMs === null) return;
    const ms = closesAtMs - Date.now();
    if (ms <= 0 || ms >= 2 ** 31 - 1) return;
    const timer = setTimeout(() => setNow(new Date()), ms + 500);
    return () => clearTimeout(timer);
  }, [closesAtMs]);
  return w;
}
