/**
 * The decision on a pending task: approve or reject, with notes (POST /api/tasks/:id/review, the service the
 * MCP tool record_task_review calls). The API records the operator from the key: a person's key records that
 * person, so the console sends no operator. What the notes must be is the API's rule; a refusal naming `notes`
 * is shown at the field.
 */
import { useId, useState } from 'react';
import type { ApiProblem } from '../api/client.ts';
import type { Me, ReviewTask } from '../api/types.ts';
import { timeText } from '../ui/format.ts';

export type TaskDecision = 'approved' | 'rejected';

export interface TaskDecisionProps {
  me: Me;
  busy: boolean;
  /** The API's refusal of the last attempt, if it named the notes. */
  notesProblem: ApiProblem | null;
  onDecide: (decision: TaskDecision, notes: string) => void;
}

export function TaskDecisionPanel({ me, busy, notesProblem, onDecide }: TaskDecisionProps) {
  const [notes, setNotes] = useState('');
  const ids = { notes: useId(), hint: useId(), error: useId() };
  const describedBy = [ids.hint, notesProblem ? ids.error : ''].filter(Boolean).join(' ');
  return (
    <section className="card actions" aria-labelledby="task-decide-title">
      <h2 id="task-decide-title">Decide</h2>
      <label htmlFor={ids.notes}>Notes <span className="muted small">(required: kept with your decision)</span></label>
      <textarea
        id={ids.notes}
        rows={4}
        value={notes}
        maxLength={4000}
        required
        disabled={busy}
        aria-invalid={notesProblem ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => setNotes(event.target.value)}
      />
      {notesProblem ? <p id={ids.error} className="field-error">Write a short note on why: {notesProblem.problem.detail ?? notesProblem.message}</p> : null}
      <p id={ids.hint} className="muted small">
        {me.reviewer ? <>Recorded as <strong>{me.reviewer.name}</strong> ({me.role}{me.reviewer.team ? `, ${me.reviewer.team}` : ''}).</> : <>Your key is not a person&apos;s: the API records a task review under a person. Sign in with a person&apos;s key (<code>vetted keys create --reviewer</code>).</>}
      </p>
      <div className="button-row">
        <button type="button" className="button-primary" disabled={busy} onClick={() => onDecide('approved', notes)}>Approve</button>
        <button type="button" className="button-danger" disabled={busy} onClick={() => onDecide('rejected', notes)}>Reject</button>
      </div>
    </section>
  );
}

/** A decided task's review, read-only: decision, notes, operator and time. */
export function TaskReviewPanel({ task }: { task: ReviewTask }) {
  const review = task.review;
  if (!review) return null;
  return (
    <section className="card" aria-labelledby="task-review-title" data-testid="task-review">
      <h2 id="task-review-title">Decision</h2>
      <p><span className={`tag status-${review.decision}`}>{review.decision === 'approved' ? 'Approved' : 'Rejected'}</span>{task.routing === 'auto_approved' ? <span className="muted small"> by the routing policy, without a person</span> : null}</p>
      <blockquote className="prompt notes">{review.notes}</blockquote>
      <dl className="facts facts-stacked">
        <div><dt>Operator</dt><dd>{review.operator.name} <span className="muted">· {review.operator.role}{review.operator.team ? ` · ${review.operator.team}` : ''}</span></dd></div>
        <div><dt>Reviewed</dt><dd><time dateTime={review.reviewedAt}>{timeText(review.reviewedAt)}</time></dd></div>
        <div><dt>Recorded by</dt><dd><code>{review.actor}</code></dd></div>
      </dl>
    </section>
  );
}
