// The desktop build's <meta> CSP (scripts/build/desktop-csp.ts, wired in electron.vite.config.ts): it names the
// build's server, never any http(s) host.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { desktopIndexHtml } from '../../scripts/build/desktop-csp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const html = fs.readFileSync(path.join(root, 'src/renderer/index.html'), 'utf8');
const metaOf = (text: string) => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(text)![1];

describe('desktop index.html CSP', () => {
  it('names the build server instead of loopback, and no wildcard', () => {
    const policy = metaOf(desktopIndexHtml(html, 'https://api.parley.example.com/v1'));
    expect(policy).toContain("connect-src 'self' https://api.parley.example.com");
    expect(policy).toContain('img-src \'self\' data: blob: https://api.parley.example.com');
    expect(policy).not.toMatch(/(^|\s)(https?|wss?):(\s|;|$)/);
    expect(policy).not.toContain('127.0.0.1');
    expect(policy).toContain("script-src 'self'");
  });

  it('keeps the loopback policy of development builds as it is', () => {
    expect(metaOf(desktopIndexHtml(html, undefined))).toBe(metaOf(html));
  });
});
