/**
 * /metrics as an operator's Prometheus sees it: refused without the token, absent without METRICS_TOKEN, and the
 * counters moving by what really happened: a customer's message through the webhook, sends through the sandbox,
 * a refusal from WhatsApp.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { SandboxAccount } from '../../src/sandbox';
import { buildTestApp, type Session, type TestApp } from '../support/server';
import { newCustomers } from '../support/customers';
import { inbound, postWebhook } from '../support/sandbox-webhooks';
import { scrape, testMetricsToken, valueOf } from '../support/metrics';

let ta: TestApp;
let admin: Session;
let number: SandboxAccount;

beforeAll(async () => {
  ta = await buildTestApp({ metricsToken: testMetricsToken });
  admin = await ta.newAdmin('Metrics Deli');
  number = ta.sandbox.addAccount();
  const res = await ta.call('POST', '/whatsapp', { token: admin.token, body: { ...number, verifiedName: undefined, workspaceId: admin.workspaceId } });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => {
  await ta?.close();
});

const customerWrites = newCustomers(() => ({ ta, workspaceId: admin.workspaceId, phoneNumberId: number.phoneNumberId }), {
  waIdPrefix: '1650777',
  text: 'Do you deliver on Sundays?',
});

describe('GET /metrics', () => {
  it('is refused without the token or with a wrong one, and answered in Prometheus text with it', async () => {
    const none = await ta.call('GET', '/metrics');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.body).not.toContain('parley_');
    const wrong = await ta.call('GET', '/metrics', { token: `${testMetricsToken}x` });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('parley_');

    const res = await ta.call('GET', '/metrics', { token: testMetricsToken });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE parley_http_request_duration_seconds histogram');
    // Scrape-time gauges: PGlite reports its one session as the pool.
    expect(valueOf(res.body, 'parley_db_pool_total')).toBeGreaterThanOrEqual(1);
    expect(res.body).toMatch(/^parley_job_queue_depth\{job="whatsapp\.webhook"\} \d+$/m);
    expect(res.body).toMatch(/^parley_campaign_recipients\{state="pending"\} 0$/m);
  });

  it('does not exist on a server without METRICS_TOKEN', async () => {
    const bare = await buildTestApp();
    try {
      const res = await bare.call('GET', '/metrics', { token: testMetricsToken });
      expect(res.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  }, 120_000);
});

describe('counters', () => {
  it("count a customer's message stored once, its repeated delivery as a duplicate, and the webhook's timings", async () => {
    const before = await scrape(ta);
    const { conversation } = await customerWrites();
    expect(conversation).toBeDefined();
    const payload = inbound(number.phoneNumberId, '16507779999', { type: 'text', text: { body: 'Twice?' } });
    for (let i = 0; i < 2; i++) expect((await postWebhook(ta, payload)).statusCode).toBe(200);
    await ta.app.parley.jobs.drain();
    const after = await scrape(ta);

    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    const inbound_ = (outcome: string) => ({ direction: 'in', number: number.phoneNumberId, outcome });
    expect(moved('parley_messages_total', inbound_('stored'))).toBe(2);
    expect(moved('parley_messages_total', inbound_('duplicate'))).toBe(1);
    expect(moved('parley_messages_total', { direction: 'out' })).toBe(0);
    expect(moved('parley_webhook_ack_duration_seconds_count')).toBe(3);
    expect(moved('parley_webhook_lag_seconds_count', { kind: 'message' })).toBe(2);
    // Meta's timestamps are now: stored well within a minute.
    expect(moved('parley_webhook_lag_seconds_bucket', { kind: 'message', le: '60' })).toBe(2);
  }, 120_000);

  it('count a send through the sandbox as sent on its number, its pacer wait and its route, and a refusal by its code', async () => {
    const { conversation } = await customerWrites();
    const before = await scrape(ta);
    const sent = await ta.call('POST', '/message', { token: admin.token, body: { text: 'Yes, 9 to 5.', conversationId: conversation.id } });
    expect(sent.statusCode).toBe(201);
    ta.sandbox.injectFailure({ code: 131026 });
    const refused = await ta.call('POST', '/message', { token: admin.token, body: { text: 'And holidays too.', conversationId: conversation.id } });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    await ta.sandbox.settle();
    await ta.app.parley.jobs.drain();
    const after = await scrape(ta);

    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    const out = (outcome: string) => ({ direction: 'out', number: number.phoneNumberId, outcome });
    expect(moved('parley_messages_total', out('sent'))).toBe(1);
    expect(moved('parley_messages_total', out('failed'))).toBe(1);
    expect(moved('parley_graph_errors_total', { code: '131026' })).toBe(1);
    expect(moved('parley_graph_errors_total')).toBe(1);
    expect(moved('parley_pacer_wait_seconds_count')).toBe(2);
    // By the route's pattern, never the raw URL.
    expect(moved('parley_http_request_duration_seconds_count', { route: '/message', method: 'POST', status_class: '2xx' })).toBe(1);
    expect(moved('parley_http_request_duration_seconds_count', { route: '/message', method: 'POST', status_class: '4xx' })).toBe(1);
    expect(after).not.toContain(conversation.id);
    expect(after).not.toContain(admin.workspaceId);
    // The sandbox reported the sent message's statuses: their lag is counted too.
    expect(moved('parley_webhook_lag_seconds_count', { kind: 'status' })).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('campaign gauges sum every campaign: recipients still to go and finished, and sends by outcome', async () => {
    const before = await scrape(ta);
    // Two rows of one campaign as the triggers keep them (an unfolded delta beside the folded sum).
    const campaignId = randomUUID();
    const row = { workspaceId: admin.workspaceId, campaignId };
    await ta.db.insert(t.campaignCounts).values([
      { ...row, folded: true, recipients: 10, pending: 4, sent: 5, delivered: 4, read: 2, replied: 1, failed: 1, optedOut: 1 },
      { ...row, pending: -1, sent: 1, unknown: 1, capped: 1 },
    ]);
    const after = await scrape(ta);
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('parley_campaign_recipients', { state: 'pending' })).toBe(3);
    expect(moved('parley_campaign_recipients', { state: 'finished' })).toBe(7);
    const sends = { sent: 6, delivered: 4, read: 2, replied: 1, failed: 1, unknown: 1, opted_out: 1, capped: 1 };
    for (const [outcome, n] of Object.entries(sends)) expect(moved('parley_campaign_sends', { outcome }), outcome).toBe(n);
    await ta.db.delete(t.campaignCounts).where(eq(t.campaignCounts.campaignId, campaignId));
  });
});
