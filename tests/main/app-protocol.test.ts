// The renderer on its own scheme (src/main/app-protocol.ts): app://parley/ serves out/renderer only, with main's
// CSP header, and index.html's <meta> policy narrowed to the configured server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL } from '../../src/main/app-origin';
import { appRequestFile, appResponse, narrowMetaCsp } from '../../src/main/app-protocol';
import { buildCsp } from '../../src/main/csp';
import { resolveRendererEntry } from '../../src/main/window';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-app-scheme-'));
const rendererDir = path.join(dir, 'renderer');
fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
fs.copyFileSync(path.join(root, 'src/renderer/index.html'), path.join(rendererDir, 'index.html'));
fs.writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
fs.writeFileSync(path.join(dir, 'secret.txt'), 'not for the page');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const server = 'https://parley.example.com';
const metaOf = (html: string) => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1];

describe('app://parley/', () => {
  it('is what a packaged window loads, never file:', () => {
    expect(resolveRendererEntry({ isPackaged: true })).toBe('app://parley/index.html');
    expect(resolveRendererEntry({ isPackaged: false, devServerUrl: 'file:///etc/passwd' })).toBe(APP_ENTRY_URL);
  });

  it('serves index.html with the CSP header and the meta policy both naming the configured server only', () => {
    const res = appResponse('app://parley/index.html', rendererDir, [server]);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(buildCsp([server]));
    const meta = metaOf(res.body.toString('utf8'))!;
    expect(meta).toBe(buildCsp([server]));
    expect(meta).toContain(`connect-src 'self' ${server}`);
    expect(meta).not.toMatch(/127\.0\.0\.1|localhost|\*|https?: /);
    expect(appResponse('app://parley/', rendererDir, [server]).body.toString('utf8')).toContain(server);
  });

  it('after a server change the next load names the new server', () => {
    const other = 'https://other.parley.example.com';
    const res = appResponse('app://parley/index.html#/settings', rendererDir, [other]);
    expect(res.headers['content-security-policy']).toContain(other);
    expect(metaOf(res.body.toString('utf8'))).not.toContain(server);
  });

  it('serves assets with their type and the header', () => {
    const res = appResponse('app://parley/assets/index-abc.js', rendererDir, [server]);
    expect(res).toMatchObject({ status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8', 'content-security-policy': buildCsp([server]) } });
    expect(res.body.toString()).toBe('console.log(1)');
  });

  it('answers 404 for anything outside the built renderer, another host, or a directory', () => {
    for (const url of [
      'app://parley/../secret.txt',
      'app://parley/%2e%2e/secret.txt',
      'app://parley/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://parley/assets/..%5c..%5csecret.txt',
      'app://parley/assets',
      'app://evil/index.html',
      'file:///etc/passwd',
      'app://parley/%E0%A4%A',
    ]) {
      expect(appResponse(url, rendererDir, [server]).status, url).toBe(404);
    }
    expect(appRequestFile('app://parley/../secret.txt', rendererDir)).toBe(path.join(rendererDir, 'secret.txt'));
    expect(appRequestFile('app://parley/%2e%2e%2fsecret.txt', rendererDir)).toBeNull();
  });

  it('refuses to serve an index.html whose CSP cannot be narrowed', () => {
    expect(() => narrowMetaCsp('<html><head></head></html>', buildCsp([server]))).toThrow('no Content-Security-Policy meta');
  });
});
