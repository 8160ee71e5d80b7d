/**
 * The Grafana dashboard (ops/grafana/parley.json) and the Prometheus alerts (ops/prometheus/alerts.yml) name only
 * metrics the app really serves: a renamed metric would otherwise leave a blank panel or an alert that never fires.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildTestApp, type TestApp } from '../support/server';
import { metricTypes, scrape, testMetricsToken } from '../support/metrics';

let ta: TestApp;
let served: Map<string, string>;
beforeAll(async () => {
  ta = await buildTestApp({ metricsToken: testMetricsToken });
  served = metricTypes(await scrape(ta));
});
afterAll(async () => {
  await ta?.close();
});

/** The parley_ names of PromQL expressions. */
const namesIn = (exprs: string[]) => [...new Set(exprs.flatMap((e) => [...e.matchAll(/parley_\w+/g)].map((m) => m[0])))];

/** Names the app does not serve: a histogram's series (_bucket, _sum, _count) count as the histogram's. */
function unknownNames(names: string[]): string[] {
  return names.filter((name) => {
    if (served.has(name)) return false;
    const base = name.replace(/_(bucket|sum|count)$/, '');
    return served.get(base) !== 'histogram';
  });
}

describe('ops files', () => {
  it("the dashboard's panels query only metrics the app serves, and show each of them", () => {
    const dashboard = JSON.parse(fs.readFileSync('ops/grafana/parley.json', 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(10);
    const names = namesIn(exprs);
    expect(unknownNames(names)).toEqual([]);
    // Every metric of the app has a panel.
    const shown = new Set(names.map((n) => n.replace(/_(bucket|sum|count)$/, '')));
    expect([...served.keys()].filter((n) => n.startsWith('parley_') && !shown.has(n))).toEqual([]);
  });

  it('the alert rules watch only metrics the app serves: webhook lag, a stuck queue, 131048 or 368, a halted campaign', () => {
    const rules = (parse(fs.readFileSync('ops/prometheus/alerts.yml', 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap(
      (g) => g.rules,
    );
    expect(rules.map((r) => r.alert)).toEqual(['ParleyWebhookLag', 'ParleyJobQueueStuck', 'ParleyWhatsAppAccountRestricted', 'ParleyCampaignHalted']);
    const byAlert = new Map(rules.map((r) => [r.alert, r.expr]));
    expect(byAlert.get('ParleyWebhookLag')).toMatch(/parley_webhook_lag_seconds_bucket.*> 60$/);
    expect(byAlert.get('ParleyJobQueueStuck')).toMatch(/parley_job_queue_oldest_seconds.*> 300$/);
    expect(byAlert.get('ParleyWhatsAppAccountRestricted')).toMatch(/parley_graph_errors_total\{code=~"131048\|368"\}/);
    expect(byAlert.get('ParleyCampaignHalted')).toContain('parley_campaign_halts_total');
    expect(unknownNames(namesIn(rules.map((r) => r.expr)))).toEqual([]);
  });
});
