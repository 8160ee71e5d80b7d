/**
 * The HTTPRequest node's call. The network rule: the bot may call public addresses only. Private (10/8,
 * 172.16/12, 192.168/16, fc00::/7), loopback, link-local (169.254/16 with the cloud metadata address, fe80::/10),
 * unspecified, carrier-grade NAT, multicast and reserved addresses are refused, checked on the address the
 * connection actually uses (in the socket's DNS lookup), so a name that resolves to a public address when checked
 * and a private one when connecting (DNS rebinding) cannot pass. Names listed in BOT_HTTP_ALLOWED_HOSTS
 * (comma-separated) may resolve anywhere: an admin's way to let bots reach an internal service. Redirects are not
 * followed; the answer is capped in time (the node's timeout) and size (botRuntime.http.maxResponseBytes).
 */
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { BotNode } from '../../shared';
import { botRuntime } from '../../shared/schemas/bot-canvas';
import type { ExecContext, HttpCall, HttpOutcome } from './executor-contract';
import { ownValue } from '../../shared/own-value';

/** Only unicast addresses on the public internet pass. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

export const allowedHosts = (): Set<string> =>
  new Set((process.env.BOT_HTTP_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean));

export class RefusedAddressError extends Error {}

/** dns.lookup that refuses every non-public address unless the host is allowed by name. */
function guardedLookup(allowed: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !allowed && !isPublicAddress(a.address));
      if (bad || list.length === 0) return callback(new RefusedAddressError(`${hostname} resolves to a non-public address (${bad?.address ?? 'none'})`), '', 0);
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** One HTTP call under the network rule; never throws. */
export function guardedFetch(call: HttpCall): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(call.url);
    } catch {
      return resolve({ ok: false, reason: 'The URL is not valid' });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return resolve({ ok: false, reason: 'Only http and https URLs are allowed' });
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const allowed = allowedHosts().has(host);
    // An address written in the URL is never looked up: check it here.
    if (net.isIP(host) && !allowed && !isPublicAddress(host)) return resolve({ ok: false, reason: `${host} is not a public address` });
    const lib = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = { ...call.headers };
    if (call.body !== undefined && call.contentType && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = call.contentType;
    const req = lib.request(url, { method: call.method, headers, lookup: guardedLookup(allowed), timeout: call.timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > botRuntime.http.maxResponseBytes) {
          req.destroy();
          resolve({ ok: false, reason: `The answer is larger than ${botRuntime.http.maxResponseBytes} bytes`, status: res.statusCode });
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) return resolve({ ok: false, reason: `The server answered ${status}`, status });
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON: mappings find nothing.
        }
        resolve({ ok: true, status, json, text });
      });
      res.on('error', (e) => resolve({ ok: false, reason: e.message }));
    });
    const timer = setTimeout(() => req.destroy(new Error(`No answer within ${call.timeoutMs} ms`)), call.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`No answer within ${call.timeoutMs} ms`)));
    req.on('error', (e) => resolve({ ok: false, reason: e instanceof RefusedAddressError ? e.message : e.message }));
    req.on('close', () => clearTimeout(timer));
    if (call.body !== undefined && call.method !== 'GET') req.write(call.body);
    req.end();
  });
}

/** The value at a JSONPath subset (`$`, `.key`, `['key']`, `[index]`) of a JSON value, or undefined. */
export function valueAtPath(json: unknown, path: string): unknown {
  const steps = [...path.slice(1).matchAll(/\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['([^']*)'\]/g)].map((m) => m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]));
  let cur: unknown = json;
  for (const s of steps) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = ownValue(cur as Record<string | number, unknown>, s);
  }
  return cur;
}

/** Builds the node's call (variables filled; in the URL, encoded), makes it, and stores the mapped values. */
export async function callHttpNode(node: Extract<BotNode, { type: 'HTTPRequestNode' }>, c: ExecContext): Promise<HttpOutcome> {
  const d = node.data;
  const url = d.url.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_w, name: string) => encodeURIComponent(c.fill(`{{${name}}}`)));
  let body: string | undefined;
  let contentType: string | undefined;
  if (d.body !== undefined && d.method !== 'GET') {
    if (d.bodyType === 'form') {
      const pairs = d.body.split(/\r?\n|&/).filter(Boolean).map((line) => line.split('=')).map(([k, ...v]) => [k.trim(), c.fill(v.join('=').trim())]);
      body = new URLSearchParams(pairs).toString();
      contentType = 'application/x-www-form-urlencoded';
    } else {
      body = c.fill(d.body);
      contentType = /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain; charset=utf-8';
    }
  }
  const headers = Object.fromEntries(d.headers.map((h) => [h.key, c.fill(h.value)]));
  const outcome = await c.env.http({ method: d.method, url, headers, body, contentType, timeoutMs: d.timeoutMs ?? botRuntime.http.defaultTimeoutMs });
  if (outcome.ok) {
    for (const m of d.responseMappings ?? []) {
      const v = valueAtPath(outcome.json, m.path);
      if (v !== undefined && v !== null) c.set(m.attributeId, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
  }
  return outcome;
}
