/** The leak-rate chart: one line per model over time (SVG), with the same numbers as a table for screen readers. */
import type { Series } from './leak-series.ts';

const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2'];
const W = 720;
const H = 240;
const PAD = { left: 48, right: 16, top: 16, bottom: 36 };

export function LeakChart({ series, bucketMs }: { series: Series[]; bucketMs: number }) {
  const buckets = series.flatMap((s) => s.points.map((p) => p.bucket));
  if (buckets.length === 0) return <p className="muted">No compared shadow reports yet. Enable shadow mode: <code>vetted shadow enable --tenant … --rate 0.25</code>.</p>;
  // One bucket has no span: it is drawn in the middle of a window one bucket wide on each side.
  const min = Math.min(...buckets) - (new Set(buckets).size === 1 ? bucketMs : 0);
  const max = Math.max(...buckets, min + 2 * bucketMs);
  const x = (t: number) => PAD.left + ((t - min) / (max - min)) * (W - PAD.left - PAD.right);
  const y = (rate: number) => PAD.top + (1 - rate) * (H - PAD.top - PAD.bottom);
  const label = (t: number) => new Date(t).toLocaleString(undefined, bucketMs >= 86_400_000 ? { month: 'short', day: 'numeric' } : { hour: '2-digit', minute: '2-digit' });
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="leak-chart-caption">
        {[0, 0.25, 0.5, 0.75, 1].map((r) => (
          <g key={r}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(r)} y2={y(r)} className="grid" />
            <text x={PAD.left - 8} y={y(r) + 4} textAnchor="end" className="axis">{Math.round(r * 100)}%</text>
          </g>
        ))}
        <text x={PAD.left} y={H - 10} className="axis">{label(min)}</text>
        <text x={W - PAD.right} y={H - 10} textAnchor="end" className="axis">{label(max)}</text>
        {series.map((s, i) => {
          const color = COLORS[i % COLORS.length];
          const d = s.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.bucket).toFixed(1)},${y(p.rate).toFixed(1)}`).join(' ');
          return (
            <g key={s.model}>
              <path d={d} fill="none" stroke={color} strokeWidth={2.5} />
              {s.points.map((p) => <circle key={p.bucket} cx={x(p.bucket)} cy={y(p.rate)} r={4} fill={color}><title>{`${s.model}: ${Math.round(p.rate * 100)}% (${p.leaked}/${p.compared}) at ${label(p.bucket)}`}</title></circle>)}
            </g>
          );
        })}
      </svg>
      <figcaption id="leak-chart-caption">
        V2 leak rate over time, by model: the share of shadowed runs whose old-way payload carried a value from the model's example.
      </figcaption>
      <ul className="legend" aria-label="Models">
        {series.map((s, i) => <li key={s.model}><span className="swatch" style={{ background: COLORS[i % COLORS.length] }} aria-hidden="true" />{s.model}: {s.leaked} of {s.compared} leaked</li>)}
      </ul>
      <details>
        <summary>The chart's numbers</summary>
        <table className="plain-table">
          <thead><tr><th scope="col">Model</th><th scope="col">From</th><th scope="col">Leaked / compared</th><th scope="col">Rate</th></tr></thead>
          <tbody>
            {series.flatMap((s) => s.points.map((p) => (
              <tr key={`${s.model}-${p.bucket}`}><td>{s.model}</td><td>{new Date(p.bucket).toLocaleString()}</td><td>{p.leaked} / {p.compared}</td><td>{Math.round(p.rate * 100)}%</td></tr>
            )))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
