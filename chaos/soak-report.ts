/**
 * The soak's end: each figure's growth per hour after the warm-up (leak.ts judges the ones that must not keep
 * growing), the submit latency per minute, and a self-contained HTML page with one inline SVG chart per figure.
 */
import { judgeGrowth, type LeakFinding, type LeakRule, type Sample } from './leak.ts';
import type { SoakSample } from './soak-sampler.ts';

/**
 * What may not keep growing, and by how much per hour it may. PostgreSQL's tables, indexes and dead tuples
 * grow with the runs stored (that is the product keeping its audit trail): reported, not judged.
 */
export const LEAK_RULES: readonly LeakRule[] = [
  { name: 'rss api (MB)', allowancePerHour: 50 },
  { name: 'rss workers (MB)', allowancePerHour: 150 },
  { name: 'api heap used (MB)', allowancePerHour: 30 },
  { name: 'api event-loop delay p99 (ms)', allowancePerHour: 50 },
  { name: 'redis keys', allowancePerHour: 5000 },
  { name: 'redis memory (MB)', allowancePerHour: 30 },
  { name: 'pg connections', allowancePerHour: 10 },
  // A transaction nobody ends ages an hour per hour, and every event stream waits for it.
  { name: 'pg oldest open transaction (s)', allowancePerHour: 600 },
  { name: 'ack latency p99 (ms)', allowancePerHour: 1000 },
];

/** Submit → 2xx latency, bucketed by the minute the request was sent: p50 and p99 per minute. */
export function latencySeries(acks: readonly { sentMinute: number; ms: number }[]): Record<string, Sample[]> {
  const buckets = new Map<number, number[]>();
  for (const a of acks) {
    const minute = Math.floor(a.sentMinute);
    buckets.set(minute, [...(buckets.get(minute) ?? []), a.ms]);
  }
  const p = (values: number[], q: number) => {
    const sorted = [...values].sort((x, y) => x - y);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
  };
  const minutes = [...buckets.keys()].sort((x, y) => x - y);
  return {
    'ack latency p50 (ms)': minutes.map((m) => ({ minute: m + 0.5, value: p(buckets.get(m) as number[], 0.5) })),
    'ack latency p99 (ms)': minutes.map((m) => ({ minute: m + 0.5, value: p(buckets.get(m) as number[], 0.99) })),
  };
}

/** The samples as one series per figure. */
export function seriesOf(samples: readonly SoakSample[], extra: Record<string, Sample[]>): Record<string, Sample[]> {
  const series: Record<string, Sample[]> = {};
  for (const s of samples) for (const [name, value] of Object.entries(s.figures)) (series[name] ??= []).push({ minute: s.minute, value });
  return { ...series, ...extra };
}

export function judgeSoak(series: Record<string, Sample[]>, warmupMinutes: number): LeakFinding[] {
  return LEAK_RULES.filter((rule) => series[rule.name]).map((rule) => judgeGrowth(rule, series[rule.name] as Sample[], warmupMinutes));
}

/** One line per figure: first → last value after the warm-up, growth per hour, and the verdict where judged. */
export function renderSoakTable(series: Record<string, Sample[]>, findings: readonly LeakFinding[], warmupMinutes: number): string {
  const judged = new Map(findings.map((f) => [f.name, f]));
  const width = Math.max(...Object.keys(series).map((k) => k.length));
  return Object.entries(series)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, samples]) => {
      const steady = samples.filter((s) => s.minute >= warmupMinutes);
      const finding = judged.get(name);
      const first = steady[0]?.value ?? NaN;
      const last = steady.at(-1)?.value ?? NaN;
      const verdict = finding ? (finding.leaking ? `LEAK: ${finding.why}` : `ok: ${finding.why}`) : 'reported';
      return `${name.padEnd(width)}  ${fmt(first)} → ${fmt(last)}  ${verdict}`;
    })
    .join('\n');
}

/** A self-contained page: one small SVG line chart per figure, the warm-up shaded. */
export function renderSoakHtml(title: string, series: Record<string, Sample[]>, findings: readonly LeakFinding[], warmupMinutes: number): string {
  const judged = new Map(findings.map((f) => [f.name, f]));
  const charts = Object.entries(series)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, samples]) => chart(name, samples, warmupMinutes, judged.get(name)))
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px}figure{display:inline-block;margin:8px}figcaption{font-size:12px}</style></head>
<body><h1>${escape(title)}</h1><p>Warm-up (shaded) left out of the growth figures. Judged figures say their growth per hour.</p>
${charts}</body></html>\n`;
}

function chart(name: string, samples: readonly Sample[], warmupMinutes: number, finding: LeakFinding | undefined): string {
  const w = 360;
  const h = 140;
  const pad = 30;
  const xs = samples.map((s) => s.minute);
  const ys = samples.map((s) => s.value);
  const [x0, x1] = [Math.min(0, ...xs), Math.max(1, ...xs)];
  const [y0, y1] = [Math.min(...ys, 0), Math.max(...ys, 1)];
  const x = (v: number) => pad + ((v - x0) / (x1 - x0 || 1)) * (w - 2 * pad);
  const y = (v: number) => h - pad + -((v - y0) / (y1 - y0 || 1)) * (h - 2 * pad);
  const points = samples.map((s) => `${x(s.minute).toFixed(1)},${y(s.value).toFixed(1)}`).join(' ');
  const caption = finding ? `${finding.leaking ? 'LEAK' : 'ok'}: ${finding.why}` : 'reported, not judged';
  return `<figure><svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escape(name)}">
<rect x="${x(x0)}" y="${pad}" width="${Math.max(0, x(Math.min(warmupMinutes, x1)) - x(x0))}" height="${h - 2 * pad}" fill="#eee"/>
<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="#999"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${h - pad}" stroke="#999"/>
<text x="${pad}" y="${pad - 8}" font-size="12">${escape(name)}</text>
<text x="2" y="${pad + 4}" font-size="10">${fmt(y1)}</text><text x="2" y="${h - pad}" font-size="10">${fmt(y0)}</text>
<text x="${w - pad - 40}" y="${h - 8}" font-size="10">${fmt(x1)} min</text>
<polyline fill="none" stroke="${finding?.leaking ? '#c00' : '#06c'}" stroke-width="1.5" points="${points}"/>
</svg><figcaption>${escape(caption)}</figcaption></figure>`;
}

function fmt(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1);
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
