// The benchmark harness: every suite returns rows that put a figure next to its limit
// (raw SQLite, raw HTTP, raw HMAC...) measured in the same run, and the ratio between them.

export interface BenchRow {
  /** What is measured, e.g. "commit order, 3 lines". */
  name: string;
  /** The figure and its unit, e.g. { value: 41.2, unit: 'µs p50' }. */
  value: number;
  unit: string;
  /** The limit it is compared with, measured in the same run. */
  baselineName: string;
  baseline: number;
  /** value / baseline for costs (lower is better), value / baseline for rates too: read with `better`. */
  ratio: number;
  better: 'lower' | 'higher';
  /** The target in words, and whether this run met it. */
  target: string;
  ok: boolean;
}

export interface BenchSuite {
  name: string;
  run(): Promise<BenchRow[]>;
}

export function percentile(sortedAscending: readonly number[], p: number): number {
  if (sortedAscending.length === 0) return Number.NaN;
  const rank = Math.min(sortedAscending.length - 1, Math.max(0, Math.ceil((p / 100) * sortedAscending.length) - 1));
  return sortedAscending[rank] as number;
}

/** Runs `fn` `iterations` times after `warmup` runs; returns per-call durations in microseconds, sorted. */
export function sampleMicros(fn: () => void, iterations: number, warmup = Math.min(200, iterations)): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const samples = new Array<number>(iterations);
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  return samples.sort((a, b) => a - b);
}

export async function sampleMicrosAsync(fn: () => Promise<void>, iterations: number, warmup = Math.min(50, iterations)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = new Array<number>(iterations);
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  return samples.sort((a, b) => a - b);
}

export function row(fields: Omit<BenchRow, 'ratio'> & { ratio?: number }): BenchRow {
  return { ...fields, ratio: fields.ratio ?? fields.value / fields.baseline };
}

function format(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(3);
}

export function renderTable(rows: readonly (BenchRow & { suite: string })[]): string {
  const header = ['suite', 'measure', 'value', 'unit', 'limit (same run)', 'limit value', 'ratio', 'target', 'ok'];
  const body = rows.map((r) => [
    r.suite,
    r.name,
    format(r.value),
    r.unit,
    r.baselineName,
    format(r.baseline),
    `${r.ratio.toFixed(2)}x`,
    r.target,
    r.ok ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
