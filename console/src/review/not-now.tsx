/**
 * "Not now": snooze the review out of the signed-in person's own queue until a time (POST
 * /api/reviews/:id/snooze with forSeconds), or bring it back at once (DELETE). Others still see it, and its
 * deadline and expiry run on, which the panel says, so nobody takes a snooze for a pause of the clock.
 */
import { useState } from 'react';
import { api } from '../api/client.ts';
import type { Assignment } from '../api/types.ts';
import { timeText } from '../ui/format.ts';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { snoozeChoices } from './snooze-choices.ts';

export interface NotNowProps {
  reviewId: string;
  snoozedUntil: string | null;
  onChanged: (assignment: Assignment, snoozed: boolean) => void;
}

export function NotNow({ reviewId, snoozedUntil, onChanged }: NotNowProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function call(method: 'POST' | 'DELETE', body?: { forSeconds: number }) {
    setBusy(true);
    setError(null);
    try {
      onChanged(await api<Assignment>(method, `/api/reviews/${reviewId}/snooze`, body), method === 'POST');
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card not-now" aria-labelledby="not-now-title" data-testid="not-now">
      <h2 id="not-now-title">Not now</h2>
      {snoozedUntil ? (
        <>
          <p>Out of your queue until <time dateTime={snoozedUntil}>{timeText(snoozedUntil)}</time>.</p>
          <button type="button" className="button-secondary" disabled={busy} onClick={() => void call('DELETE')}>Back in my queue now</button>
        </>
      ) : (
        <>
          <p className="muted small">Out of your own queue for a while; others still see it, and its deadline runs on.</p>
          <div className="button-row" role="group" aria-label="Snooze for">
            {snoozeChoices(new Date()).map((choice) => (
              <button key={choice.label} type="button" className="button-secondary button-small" disabled={busy} onClick={() => void call('POST', { forSeconds: choice.forSeconds })}>
                {choice.label}
              </button>
            ))}
          </div>
        </>
      )}
      <ProblemBanner error={error} onDismiss={() => setError(null)} />
    </section>
  );
}
