/**
 * Who the review is assigned to, and for holders of reviews:assign a way to give it to someone else (assign,
 * reassign, delegate, or take the assignment away) through POST /api/reviews/:id/assign. People marked away are
 * listed but cannot be picked: auto-assignment skips them and the API refuses them.
 */
import { useId, useState } from 'react';
import { api } from '../api/client.ts';
import type { Assignment, Reviewer } from '../api/types.ts';
import { ProblemBanner } from '../ui/problem-banner.tsx';

const NOBODY = '';

export interface AssignPanelProps {
  reviewId: string;
  assignedTo: string | null;
  people: Reviewer[];
  nameOf: (id: string) => string;
  mayAssign: boolean;
  onAssigned: (assignment: Assignment) => void;
}

export function AssignPanel({ reviewId, assignedTo, people, nameOf, mayAssign, onAssigned }: AssignPanelProps) {
  const [choice, setChoice] = useState(assignedTo ?? NOBODY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const ids = { person: useId() };
  const assignable = people.filter((p) => p.role !== 'submitter');

  async function assign() {
    setBusy(true);
    setError(null);
    try {
      onAssigned(await api<Assignment>('POST', `/api/reviews/${reviewId}/assign`, { reviewer: choice === NOBODY ? null : choice }));
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card assign" aria-labelledby={`${ids.person}-title`} data-testid="assign-panel">
      <h2 id={`${ids.person}-title`}>Assigned to</h2>
      <p className="assignee" data-testid="assigned-to">{assignedTo ? nameOf(assignedTo) : <span className="muted">nobody</span>}</p>
      {mayAssign ? (
        <div className="assign-form">
          <label htmlFor={ids.person}>Give it to</label>
          <div className="inline-row">
            <select id={ids.person} value={choice} disabled={busy} onChange={(e) => setChoice(e.target.value)}>
              <option value={NOBODY}>Nobody (take the assignment away)</option>
              {assignable.map((person) => (
                <option key={person.id} value={person.id} disabled={!person.available}>
                  {person.name}{person.team ? ` (${person.team})` : ''}{person.available ? '' : ' · away'}
                </option>
              ))}
            </select>
            <button type="button" className="button-secondary" disabled={busy || choice === (assignedTo ?? NOBODY)} onClick={() => void assign()}>
              {assignedTo ? 'Reassign' : 'Assign'}
            </button>
          </div>
        </div>
      ) : null}
      <ProblemBanner error={error} onDismiss={() => setError(null)} />
    </section>
  );
}
