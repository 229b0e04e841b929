/**
 * What reviewers correct: per model and field, how often a person's edit replaced the builder's value, the most
 * frequent changes, the issues behind them, and edits per week. The field at the top of a model is the builder
 * rule or policy to fix next. Reads GET /api/reports/corrections (reviews:read).
 */
import { useEffect, useState } from 'react';
import { api } from '../api/client.ts';
import type { CorrectionsReport } from '../api/types.ts';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { ModelCorrectionsCard } from './model-corrections.tsx';

const LOOK_BACKS = [4, 12, 26, 52] as const;

export function CorrectionsPage() {
  const [weeks, setWeeks] = useState<number>(12);
  const [report, setReport] = useState<CorrectionsReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setReport(null);
    setError(null);
    api<CorrectionsReport>('GET', `/api/reports/corrections?weeks=${weeks}`).then(setReport, setError);
  }, [weeks]);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Corrections</h1>
          <p className="muted">What reviewers change in the payloads the builder made. The field people fix most is the rule or policy to fix next.</p>
        </div>
        <label className="inline-field">
          Over the last{' '}
          <select value={weeks} onChange={(event) => setWeeks(Number(event.target.value))} aria-label="Look-back in weeks">
            {LOOK_BACKS.map((n) => <option key={n} value={n}>{n} weeks</option>)}
          </select>
        </label>
      </div>
      <ProblemBanner error={error} />
      {report === null && !error ? <p className="muted">Counting the decisions…</p> : null}
      {report ? (
        <>
          <p data-testid="corrections-total"><strong>{report.corrected}</strong> of {report.decisions} decisions changed the payload.</p>
          {report.models.length === 0 ? <p className="muted">No decisions in this window.</p> : report.models.map((model) => <ModelCorrectionsCard key={model.model} model={model} />)}
        </>
      ) : null}
    </>
  );
}
