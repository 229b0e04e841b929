/**
 * Shadow mode for engineers: the V2 leak rate over time per model, and the latest V2/V3 comparisons with the
 * example values V2 leaked. Reads GET /api/shadow/reports (the shadow:read permission).
 */
import { useEffect, useMemo, useState } from 'react';
import { api } from '../api/client.ts';
import type { Page, ShadowReport } from '../api/types.ts';
import { timeText, valueText } from '../ui/format.ts';
import { Link } from '../ui/link.tsx';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { LeakChart } from './leak-chart.tsx';
import { bucketSizeFor, leakSeries } from './leak-series.ts';

const LATEST = 6;

export function ShadowPage() {
  const [reports, setReports] = useState<ShadowReport[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api<Page<ShadowReport>>('GET', '/api/shadow/reports?limit=200').then((page) => setReports(page.items), setError);
  }, []);
  const bucketMs = useMemo(() => bucketSizeFor(reports ?? []), [reports]);
  const series = useMemo(() => leakSeries(reports ?? [], bucketMs), [reports, bucketMs]);

  return (
    <>
      <div className="page-head"><div><h1>Shadow mode</h1><p className="muted">The old way (V2: the model's example with the builder's values on top) beside the zero-trust way (V3), on the same requests. V3 must never leak.</p></div></div>
      <ProblemBanner error={error} />
      {reports === null && !error ? <p className="muted">Loading shadow reports…</p> : null}
      {reports ? (
        <>
          <section className="card" aria-labelledby="rate-title">
            <h2 id="rate-title">Leak rate over time</h2>
            <LeakChart series={series} bucketMs={bucketMs} />
          </section>
          <section className="card" aria-labelledby="latest-title">
            <h2 id="latest-title">Latest comparisons</h2>
            {reports.length === 0 ? <p className="muted">None yet.</p> : (
              <ul className="reports">
                {reports.slice(0, LATEST).map((r) => (
                  <li key={r.id} className="report">
                    <div className="report-head">
                      <strong>{r.model ?? 'inline model'}</strong>
                      <span className={r.leakedFields.length ? 'badge badge-block' : 'badge badge-ok'}>{r.leakedFields.length ? `V2 leaked ${r.leakedFields.join(', ')}` : 'no V2 leak'}</span>
                      <span className={r.v3Leaks.length ? 'badge badge-block' : 'badge badge-ok'}>V3 leaks: {r.v3Leaks.length}</span>
                      <span className="muted small">{timeText(r.createdAt)} · {r.fieldsDiffering} field{r.fieldsDiffering === 1 ? '' : 's'} differ · <Link to={{ page: 'run', runId: r.runId }}>run</Link></span>
                    </div>
                    {r.status !== 'ok' ? <p className="muted">Not compared: {r.failureReason}</p> : <DiffTable report={r} />}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}

function DiffTable({ report }: { report: ShadowReport }) {
  const names = [...new Set([...Object.keys(report.v2Payload ?? {}), ...Object.keys(report.v3Payload ?? {})])];
  const leaked = new Set(report.leakedFields);
  const differing = names.filter((n) => JSON.stringify(report.v2Payload?.[n]) !== JSON.stringify(report.v3Payload?.[n]));
  if (differing.length === 0) return <p className="muted">V2 and V3 are the same.</p>;
  return (
    <table className="plain-table diff-table">
      <thead><tr><th scope="col">Field</th><th scope="col">V2 (old way)</th><th scope="col">V3 (zero trust)</th></tr></thead>
      <tbody>
        {differing.map((n) => (
          <tr key={n} className={leaked.has(n) ? 'leaked' : undefined}>
            <th scope="row"><code>{n}</code>{leaked.has(n) ? <span className="badge badge-block">example value</span> : null}</th>
            <td className="value-text">{valueText(report.v2Payload?.[n])}</td>
            <td className="value-text">{valueText(report.v3Payload?.[n])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
