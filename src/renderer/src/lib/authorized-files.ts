/**
 * Files the server keeps (/files/...) are served to workspace members with their bearer token, which <img>,
 * <video> and plain links cannot send. These helpers fetch such a file with the token and hand back a blob:
 * URL (cached, so a virtualised list that remounts a row does not download it again). Signed links (?sig=) and
 * links elsewhere are used as they are.
 */
import { useEffect, useState } from 'react';
import { apiBaseUrl } from './config';
import { currentIdToken } from './id-token';

const cache = new Map<string, Promise<string>>();
const MAX_CACHED = 200;

/** Absolute URL of a file the server answered (paths are relative to the server, not the UI). */
export function serverFileUrl(url: string): string {
  return url.startsWith('/') ? apiBaseUrl() + url : url;
}

export function needsToken(url: string): boolean {
  const abs = serverFileUrl(url);
  return abs.startsWith(`${apiBaseUrl()}/files/`) && !/[?&]sig=/.test(abs);
}

export function fetchFileBlobUrl(url: string): Promise<string> {
  const abs = serverFileUrl(url);
  let hit = cache.get(abs);
  if (!hit) {
    hit = (async () => {
      const token = await currentIdToken();
      const res = await fetch(abs, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new Error(`The file could not be loaded (${res.status})`);
      return URL.createObjectURL(await res.blob());
    })();
    hit.catch(() => cache.delete(abs));
    cache.set(abs, hit);
    if (cache.size > MAX_CACHED) {
      const [oldest] = cache.keys();
      void cache.get(oldest)?.then((u) => URL.revokeObjectURL(u), () => undefined);
      cache.delete(oldest);
    }
  }
  return hit;
}

/** A src for <img>/<video>: the URL itself, or a blob: URL of the file fetched with the user's token. */
export function useFileSrc(url: string | null | undefined): { src: string | null; failed: boolean } {
  const direct = url && !needsToken(url) ? serverFileUrl(url) : null;
  const [state, setState] = useState<{ url: string; src: string | null; failed: boolean } | null>(null);
  useEffect(() => {
    if (!url || direct) return;
    let live = true;
    fetchFileBlobUrl(url).then(
      (src) => live && setState({ url, src, failed: false }),
      () => live && setState({ url, src: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [url, direct]);
  if (!url) return { src: null, failed: false };
  if (direct) return { src: direct, failed: false };
  return state?.url === url ? { src: state.src, failed: state.failed } : { src: null, failed: false };
}

/** Opens (or saves) a server file in a new tab through a blob: URL. */
export async function openFile(url: string, fileName?: string): Promise<void> {
  if (!needsToken(url)) {
    window.open(serverFileUrl(url), '_blank', 'noopener');
    return;
  }
  const blobUrl = await fetchFileBlobUrl(url);
  const a = document.createElement('a');
  a.href = blobUrl;
  if (fileName) a.download = fileName;
  a.target = '_blank';
  a.rel = 'noopener';
  a.click();
}
