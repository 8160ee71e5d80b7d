// The renderer's own scheme: the built renderer (out/renderer) is served from app://parley/ through
// protocol.handle (src/main/index.ts), not from file:. Every answer carries main's CSP header naming the one
// server the app talks to, and index.html's own <meta> policy is narrowed to that server as it is served, so
// both policies name it. 'self' is app://parley, never the local file system. Plain Node: tested in tests/main
// and used by the desktop e2e suite to answer the page's requests.
import fs from 'node:fs';
import path from 'node:path';
import { APP_HOST, APP_SCHEME } from './app-origin';
import { buildCsp } from './csp';

// The desktop e2e harness answers this origin's requests with appResponse, so it is offered here too.

/** protocol.registerSchemesAsPrivileged: a standard, secure origin (fetch, storage), no service workers, no CORS bypass. */
export const appSchemePrivileges = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, allowServiceWorkers: false, bypassCSP: false, corsEnabled: false, stream: false },
} as const;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};

/**
 * The file an app:// request names, inside `rendererDir` only (no `..`, no encoded separators, no other host),
 * or null. `/` is index.html.
 */
export function appRequestFile(url: string, rendererDir: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  if (!file.startsWith(root + path.sep)) return null;
  return file;
}

/** index.html's <meta> CSP replaced by the policy naming the current server (the build's names only loopback). */
export function narrowMetaCsp(html: string, policy: string): string {
  const escaped = policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const out = html.replace(/(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/i, `$1${escaped}$2`);
  if (out === html && !html.includes(escaped)) throw new Error('index.html has no Content-Security-Policy meta to narrow');
  return out;
}

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The answer to one app:// request: the file with main's CSP header, index.html narrowed; 404 for anything else. */
export function appResponse(url: string, rendererDir: string, connectSrc: readonly string[]): AppResponse {
  const csp = buildCsp(connectSrc);
  const headers = { 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' };
  const file = appRequestFile(url, rendererDir);
  let body: Buffer;
  try {
    if (!file || !fs.statSync(file).isFile()) throw new Error('not a file');
    body = fs.readFileSync(file);
  } catch {
    return { status: 404, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from('Not found') };
  }
  const ext = path.extname(file).toLowerCase();
  if (path.basename(file) === 'index.html' && path.dirname(file) === path.resolve(rendererDir)) {
    body = Buffer.from(narrowMetaCsp(body.toString('utf8'), csp));
  }
  return { status: 200, headers: { ...headers, 'content-type': contentTypes[ext] ?? 'application/octet-stream' }, body };
}
