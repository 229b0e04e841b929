/**
 * Leak rate over time, per model, from shadow reports: in each time bucket, the share of compared runs whose V2
 * payload carried an example value. Buckets are hours over two days or less, days beyond.
 */
import type { ShadowReport } from '../api/types.ts';

export interface SeriesPoint {
  bucket: number;
  compared: number;
  leaked: number;
  rate: number;
}

export interface Series {
  model: string;
  points: SeriesPoint[];
  compared: number;
  leaked: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function bucketSizeFor(reports: readonly ShadowReport[]): number {
  const times = reports.map((r) => Date.parse(r.createdAt));
  return times.length && Math.max(...times) - Math.min(...times) > 2 * DAY ? DAY : HOUR;
}

export function leakSeries(reports: readonly ShadowReport[], bucketMs = bucketSizeFor(reports)): Series[] {
  const byModel = new Map<string, Map<number, { compared: number; leaked: number }>>();
  for (const report of reports) {
    if (report.status !== 'ok') continue;
    const model = report.model ?? 'inline model';
    const bucket = Math.floor(Date.parse(report.createdAt) / bucketMs) * bucketMs;
    const buckets = byModel.get(model) ?? new Map<number, { compared: number; leaked: number }>();
    const cell = buckets.get(bucket) ?? { compared: 0, leaked: 0 };
    cell.compared += 1;
    if (report.leakedFields.length > 0) cell.leaked += 1;
    buckets.set(bucket, cell);
    byModel.set(model, buckets);
  }
  return [...byModel.entries()].map(([model, buckets]) => {
    const points = [...buckets.entries()].sort(([a], [b]) => a - b).map(([bucket, c]) => ({ bucket, ...c, rate: c.leaked / c.compared }));
    return { model, points, compared: points.reduce((n, p) => n + p.compared, 0), leaked: points.reduce((n, p) => n + p.leaked, 0) };
  }).sort((a, b) => a.model.localeCompare(b.model));
}
