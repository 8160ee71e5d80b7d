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
import type { FastifyBaseLogger } from 'fastify';
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

/** What a workspace is told of a refused address: never the address a name resolved to. */
const refusedReason = 'The address is not allowed: bots may call public addresses only';

/**
 * The reason a workspace sees for a failed connection (the preview shows it): resolver errors and the addresses
 * behind a name would map the server's network, so they go to `detail` (the server's log) only.
 */
function connectionFailure(e: Error, timeoutMs: number): HttpOutcome {
  if (e instanceof RefusedAddressError) return { ok: false, reason: refusedReason, detail: e.message };
  if (e instanceof TimeoutError) return { ok: false, reason: `No answer within ${timeoutMs} ms` };
  return { ok: false, reason: 'The server could not be reached', detail: e.message };
}
class TimeoutError extends Error {}

/** The first header whose name or value Node would refuse (a line break, text that is not Latin-1), if any. */
function invalidHeader(headers: Record<string, string>): string | null {
  for (const [name, value] of Object.entries(headers)) {
    try {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
    } catch {
      return name;
    }
  }
  return null;
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
    if (net.isIP(host) && !allowed && !isPublicAddress(host)) return resolve({ ok: false, reason: refusedReason, detail: `${host} is not a public address` });
    const headers: Record<string, string> = { ...call.headers };
    if (call.body !== undefined && call.contentType && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = call.contentType;
    const bad = invalidHeader(headers);
    if (bad !== null) return resolve({ ok: false, reason: `The header ${JSON.stringify(bad)} is not a valid header (a line break or a character outside Latin-1)` });
    const lib = url.protocol === 'https:' ? https : http;
    let req: http.ClientRequest;
    try {
      req = lib.request(url, { method: call.method, headers, lookup: guardedLookup(allowed), timeout: call.timeoutMs }, (res) => {
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
        res.on('error', (e) => resolve(connectionFailure(e, call.timeoutMs)));
      });
    } catch (e) {
      // Whatever Node refuses while building the request fails the node, never the turn.
      return resolve({ ok: false, reason: 'The request could not be made', detail: (e as Error).message });
    }
    const timer = setTimeout(() => req.destroy(new TimeoutError()), call.timeoutMs);
    req.on('timeout', () => req.destroy(new TimeoutError()));
    req.on('error', (e) => resolve(connectionFailure(e, call.timeoutMs)));
    req.on('close', () => clearTimeout(timer));
    if (call.body !== undefined && call.method !== 'GET') req.write(call.body);
    req.end();
  });
}

/** guardedFetch, with what a failure must not show the workspace (addresses, resolver errors) kept in the server's log. */
export async function loggedFetch(log: FastifyBaseLogger, call: HttpCall, context: Record<string, unknown>): Promise<HttpOutcome> {
  const outcome = await guardedFetch(call);
  if (!outcome.ok && outcome.detail) log.warn({ ...context, detail: outcome.detail }, `bot HTTP call failed: ${outcome.reason}`);
  return outcome;
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

/** `{{variables}}` of a template, each filled and then encoded for where it goes. */
const fillEncoded = (template: string, c: ExecContext, encode: (value: string) => string) =>
  template.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_w, name: string) => encode(c.fill(`{{${name}}}`)));

/** A value as the content of a JSON string: quotes, backslashes and control characters escaped. */
const jsonStringContent = (value: string) => JSON.stringify(value).slice(1, -1);

/**
 * Builds the node's call. What customers typed is data, never structure: in the URL each value is encoded, in a
 * form body each value is form-encoded, in a JSON body each value is JSON string content.
 */
export function buildHttpCall(node: Extract<BotNode, { type: 'HTTPRequestNode' }>, c: ExecContext): HttpCall {
  const d = node.data;
  const url = fillEncoded(d.url, c, encodeURIComponent);
  let body: string | undefined;
  let contentType: string | undefined;
  if (d.body !== undefined && d.method !== 'GET') {
    if (d.bodyType === 'form') {
      const pairs = d.body.split(/\r?\n|&/).filter(Boolean).map((line) => line.split('=')).map(([k, ...v]) => [k.trim(), c.fill(v.join('=').trim())]);
      body = new URLSearchParams(pairs).toString();
      contentType = 'application/x-www-form-urlencoded';
    } else if (/^\s*[[{]/.test(d.body)) {
      body = fillEncoded(d.body, c, jsonStringContent);
      contentType = 'application/json';
    } else {
      body = c.fill(d.body);
      contentType = 'text/plain; charset=utf-8';
    }
  }
  const headers = Object.fromEntries(d.headers.map((h) => [h.key, c.fill(h.value)]));
  return { method: d.method, url, headers, body, contentType, timeoutMs: d.timeoutMs ?? botRuntime.http.defaultTimeoutMs };
}

/** Stores the mapped parts of a JSON answer in attributes. */
export function applyHttpOutcome(node: Extract<BotNode, { type: 'HTTPRequestNode' }>, outcome: HttpOutcome, c: ExecContext): void {
  if (!outcome.ok) return;
  for (const m of node.data.responseMappings ?? []) {
    const v = valueAtPath(outcome.json, m.path);
    if (v !== undefined && v !== null) c.set(m.attributeId, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
}
