/** Reading the app's /metrics as Prometheus would: the text format parsed into samples and metric types. */
import { expect } from 'vitest';
import type { TestApp } from './server';

/** METRICS_TOKEN of the tests' apps that serve /metrics. */
export const testMetricsToken = 'metrics-token-for-tests-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** GET /metrics with the token; fails the test unless it answers 200. */
export async function scrape(ta: TestApp): Promise<string> {
  const res = await ta.call('GET', '/metrics', { token: testMetricsToken });
  expect(res.statusCode).toBe(200);
  return res.body;
}

function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` carrying at least `labels` (0 when none does). */
export function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  return parseSamples(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Every metric's type, from the `# TYPE name type` lines. */
export function metricTypes(text: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(m[1], m[2]);
  return types;
}
