/**
 * The decision: approve, save edits, reject with a reason, retry where the checkpoint offers it; override over
 * blocking issues only for keys that hold the permission; the quorum's progress when one is asked for.
 */
import { forwardRef, useId, useState } from 'react';
import type { PendingReview } from '../api/types.ts';
import { actorText } from '../ui/format.ts';

export type Action = 'approve' | 'edit' | 'reject' | 'retry';

export interface ActionsProps {
  review: PendingReview;
  editCount: number;
  blocking: number;
  mayOverride: boolean;
  disabled: boolean;
  busy: boolean;
  onDecide: (action: Action, options: { reason: string; override: boolean }) => void;
  reasonRef: React.RefObject<HTMLTextAreaElement | null>;
}

export const ActionsPanel = forwardRef<HTMLButtonElement, ActionsProps>(function ActionsPanel({ review, editCount, blocking, mayOverride, disabled, busy, onDecide, reasonRef }, approveRef) {
  const [reason, setReason] = useState('');
  const [override, setOverride] = useState(false);
  const [rejectTried, setRejectTried] = useState(false);
  const ids = { reason: useId(), override: useId(), reasonHint: useId(), reasonError: useId() };
  const offered = new Set((review.actions ?? []).map((a) => a.id));
  const approveBlocked = blocking > 0 && !(mayOverride && override);
  const quorum = review.quorum ?? 1;
  const reject = () => {
    if (reason.trim() === '') {
      setRejectTried(true);
      reasonRef.current?.focus();
      return;
    }
    onDecide('reject', { reason, override: false });
  };

  return (
    <section className="card actions" aria-labelledby="decide-title">
      <h2 id="decide-title">Decide</h2>
      {quorum > 1 ? (
        <p className="quorum" data-testid="quorum">
          Quorum: <strong>{review.approvals?.length ?? 0} of {quorum}</strong> approvals
          {review.approvals?.length ? <> ({review.approvals.map(actorText).join(', ')})</> : null}
        </p>
      ) : null}
      <label htmlFor={ids.reason}>Reason <span className="muted small">(required to reject; recorded with any decision)</span></label>
      <textarea
        id={ids.reason}
        ref={reasonRef}
        rows={2}
        value={reason}
        maxLength={2000}
        disabled={disabled}
        aria-invalid={rejectTried && reason.trim() === '' ? true : undefined}
        aria-describedby={rejectTried && reason.trim() === '' ? ids.reasonError : undefined}
        onChange={(event) => setReason(event.target.value)}
      />
      {rejectTried && reason.trim() === '' ? <p id={ids.reasonError} className="field-error">Say why you reject it: the reason is kept with the decision.</p> : null}
      {blocking > 0 && mayOverride ? (
        <label className="checkbox" htmlFor={ids.override}>
          <input id={ids.override} type="checkbox" checked={override} disabled={disabled} onChange={(e) => setOverride(e.target.checked)} />
          Override: approve despite {blocking} blocking issue{blocking > 1 ? 's' : ''} (recorded as an override)
        </label>
      ) : null}
      <div className="button-row">
        {editCount > 0 ? (
          <button type="button" className="button-primary" disabled={disabled || busy} onClick={() => onDecide('edit', { reason, override: false })}>
            Save {editCount} edit{editCount > 1 ? 's' : ''} and validate
          </button>
        ) : (
          <button ref={approveRef} type="button" className="button-primary" disabled={disabled || busy || approveBlocked || !offered.has('approve')} onClick={() => onDecide('approve', { reason, override: blocking > 0 && override })}>
            Approve
          </button>
        )}
        {offered.has('retry') ? <button type="button" className="button-secondary" disabled={disabled || busy} onClick={() => onDecide('retry', { reason, override: false })}>Retry</button> : null}
        <button type="button" className="button-danger" disabled={disabled || busy} onClick={reject}>Reject</button>
      </div>
      {editCount === 0 && approveBlocked ? <p className="muted small">Fix the blocking issues in the form{mayOverride ? ', or tick override,' : ''} to approve.</p> : null}
    </section>
  );
});
