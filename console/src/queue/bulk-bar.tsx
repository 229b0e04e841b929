/**
 * The bulk action bar over the queue: approve or reject the selected reviews in one request
 * (POST /api/reviews/decisions), each item bound to the payload hash shown in the queue and decided on its own
 * (its own compare-and-set), then one line per item: decided, decided by someone else first, or refused and why.
 * Approve is off while a selected review has blocking issues (the API would refuse it); reject asks for a reason.
 */
import { useId, useState } from 'react';
import { api } from '../api/client.ts';
import type { BulkDecisionItem, BulkDecisionResult, ReviewSummary } from '../api/types.ts';
import { Link } from '../ui/link.tsx';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { resultLine, resultSummary, type ResultLine } from './bulk-results.ts';

interface Outcome {
  action: 'approve' | 'reject';
  /** Each line with what tells the items apart: the model and the run. */
  lines: (ResultLine & { model: string; runId: string | null })[];
}

export interface BulkBarProps {
  selected: ReviewSummary[];
  mayDecide: boolean;
  nameOf: (actor: string) => string;
  onClear: () => void;
  /** After the answer: the queue is read again and the decided items leave the selection. */
  onDecided: (decided: string[]) => void;
}

export function BulkBar({ selected, mayDecide, nameOf, onClear, onDecided }: BulkBarProps) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonTried, setReasonTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<unknown>(null);
  const ids = { reason: useId(), why: useId(), reasonError: useId() };
  const blocked = selected.filter((item) => item.blockingIssues > 0);

  async function decide(action: 'approve' | 'reject') {
    if (action === 'reject' && reason.trim() === '') {
      setReasonTried(true);
      return;
    }
    setBusy(true);
    setError(null);
    const items: BulkDecisionItem[] = selected.map((item) => ({ reviewId: item.reviewId, action, payloadHash: item.payloadHash, ...(action === 'reject' ? { reason: reason.trim() } : {}) }));
    const shown = new Map(selected.map((item) => [item.reviewId, item]));
    try {
      const answer = await api<{ results: BulkDecisionResult[] }>('POST', '/api/reviews/decisions', { items });
      const lines = answer.results.map((result) => {
        const item = shown.get(result.reviewId);
        return { ...resultLine(result, action, nameOf), model: item ? (item.model ?? 'inline model') : result.reviewId, runId: item?.runId ?? null };
      });
      setOutcome({ action, lines });
      setRejecting(false);
      setReason('');
      setReasonTried(false);
      onDecided(answer.results.filter((r) => r.outcome !== 'refused').map((r) => r.reviewId));
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  }

  if (selected.length === 0 && !outcome && !error) return null;
  return (
    <section className="bulk-bar card" aria-label="Selected reviews" data-testid="bulk-bar">
      {selected.length > 0 ? (
        <div className="bulk-actions">
          <strong role="status">{selected.length} selected</strong>
          {mayDecide ? (
            <>
              <button type="button" className="button-primary" disabled={busy || blocked.length > 0} aria-describedby={blocked.length > 0 ? ids.why : undefined} onClick={() => void decide('approve')}>
                Approve {selected.length}
              </button>
              <button type="button" className="button-danger" disabled={busy} aria-expanded={rejecting} onClick={() => setRejecting((open) => !open)}>Reject {selected.length}…</button>
            </>
          ) : <span className="muted small">Your key may read reviews but not decide them.</span>}
          <button type="button" className="button-ghost" disabled={busy} onClick={onClear}>Clear selection</button>
          {blocked.length > 0 && mayDecide ? (
            <p id={ids.why} className="bulk-why small">
              Approve is off: {blocked.length === 1 ? '1 selected review has' : `${blocked.length} selected reviews have`} blocking issues. Open {blocked.length === 1 ? 'it' : 'each'} to fix them, or unselect {blocked.length === 1 ? 'it' : 'them'}; reject works for all.
            </p>
          ) : null}
        </div>
      ) : null}
      {rejecting && selected.length > 0 ? (
        <div className="bulk-reject">
          <label htmlFor={ids.reason}>Why reject {selected.length === 1 ? 'it' : `these ${selected.length}`}? <span className="muted small">(kept with each decision)</span></label>
          <textarea
            id={ids.reason}
            rows={2}
            maxLength={2000}
            value={reason}
            aria-invalid={reasonTried && reason.trim() === '' ? true : undefined}
            aria-describedby={reasonTried && reason.trim() === '' ? ids.reasonError : undefined}
            onChange={(event) => setReason(event.target.value)}
          />
          {reasonTried && reason.trim() === '' ? <p id={ids.reasonError} className="field-error">Say why you reject them: the reason is kept with each decision.</p> : null}
          <div className="button-row">
            <button type="button" className="button-danger" disabled={busy} onClick={() => void decide('reject')}>Reject {selected.length} with this reason</button>
            <button type="button" className="button-ghost" disabled={busy} onClick={() => setRejecting(false)}>Cancel</button>
          </div>
        </div>
      ) : null}
      <ProblemBanner error={error} onDismiss={() => setError(null)} />
      {outcome ? <Results outcome={outcome} onDismiss={() => setOutcome(null)} /> : null}
    </section>
  );
}

function Results({ outcome, onDismiss }: { outcome: Outcome; onDismiss: () => void }) {
  return (
    <div className="bulk-results" role="status" data-testid="bulk-results">
      <div className="bulk-results-head">
        <strong>{resultSummary(outcome.lines, outcome.action)}</strong>
        <button type="button" className="button-ghost button-small" onClick={onDismiss}>Dismiss</button>
      </div>
      <ul>
        {outcome.lines.map((line) => (
          <li key={line.reviewId} className={`result-${line.tone}`} data-review-id={line.reviewId} data-outcome={line.tone}>
            <span className="result-model">{line.model}</span>
            {line.runId ? <Link to={{ page: 'run', runId: line.runId }} className="result-run">run {line.runId.slice(0, 8)}</Link> : null}
            <span>{line.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
