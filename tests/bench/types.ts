/**
 * The shape every benchmark module in tests/bench exports (tests/bench/run.ts runs them all):
 *
 *   export const benchmark: Benchmark = { name: 'audience', needsDatabase: true, async run(ctx) { ... } };
 *
 * - name: file name of its figures, bench-results/<name>.json.
 * - needsDatabase: run.ts creates a scratch PostgreSQL database for it (ctx.databaseUrl) and drops it after.
 * - run(ctx) answers metrics; a metric with a `goal` passes when value <= goal (all metrics are "lower is
 *   better": durations, ratios). run.ts adds the machine and time, writes the JSON, and prints a summary.
 */
export interface BenchContext {
  /** postgres:// URL of a scratch database (only when needsDatabase). */
  databaseUrl?: string;
  /** Progress lines for the console. */
  log(message: string): void;
}

export interface Metric {
  value: number;
  unit: 'ms' | 's' | 'x' | 'rows' | 'rows/s' | 'MB' | 'msg/s' | 'count';
  /** The target; the metric passes when value <= goal. */
  goal?: number;
  description: string;
}

export interface BenchResult {
  metrics: Record<string, Metric>;
  /** What was measured and how, in a sentence or two each. */
  notes?: string[];
}

export interface Benchmark {
  name: string;
  needsDatabase?: boolean;
  run(ctx: BenchContext): Promise<BenchResult>;
}

/** p-th percentile (0..100) of samples, nearest rank. */
export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
