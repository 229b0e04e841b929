/**
 * The decision: approve, save edits, reject with a reason, retry where the checkpoint offers it, send the run to
 * another catalog model where the checkpoint offers it and the key may, edit a text output before accepting it;
 * override over blocking issues only for keys that hold the permission; the quorum's progress when one is asked for.
 */
import { forwardRef, useId, useState } from 'react';
import type { PendingReview } from '../api/types.ts';
import { actorText } from '../ui/format.ts';

export type Action = 'approve' | 'edit' | 'reject' | 'retry' | 'change_model' | 'edit_text';

export interface DecideOptions {
  reason: string;
  override: boolean;
  /** change_model: the catalog model (owner/name[:version]) the run is built for instead. */
  model?: string;
  /** edit_text: the text the upstream app gets instead of the provider's output. */
  text?: string;
}

export interface ActionsProps {
  review: PendingReview;
  editCount: number;
  blocking: number;
  mayOverride: boolean;
  /** The key holds reviews:change_model. */
  mayChangeModel: boolean;
  disabled: boolean;
  busy: boolean;
  onDecide: (action: Action, options: DecideOptions) => void;
  reasonRef: React.RefObject<HTMLTextAreaElement | null>;
}

export const ActionsPanel = forwardRef<HTMLButtonElement, ActionsProps>(function ActionsPanel({ review, editCount, blocking, mayOverride, mayChangeModel, disabled, busy, onDecide, reasonRef }, approveRef) {
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
      {offered.has('edit_text') ? <EditText output={review.output} disabled={disabled || busy} onAccept={(text) => onDecide('edit_text', { reason, override: false, text })} /> : null}
      {offered.has('change_model') && mayChangeModel ? <ChangeModel disabled={disabled || busy} onChange={(model) => onDecide('change_model', { reason, override: false, model })} /> : null}
      {editCount === 0 && approveBlocked ? <p className="muted small">Fix the blocking issues in the form{mayOverride ? ', or tick override,' : ''} to approve.</p> : null}
    </section>
  );
});

/** Another catalog model for the run: it is extracted, assembled and built again for it, keeping what people gave. */
function ChangeModel({ disabled, onChange }: { disabled: boolean; onChange: (model: string) => void }) {
  const [model, setModel] = useState('');
  const [tried, setTried] = useState(false);
  const ids = { model: useId(), hint: useId(), error: useId() };
  const empty = model.trim() === '';
  const submit = () => {
    setTried(true);
    if (!empty) onChange(model.trim());
  };
  return (
    <div className="change-model" data-testid="change-model">
      <label htmlFor={ids.model}>Another model <span className="muted small">(owner/name from your catalog)</span></label>
      <input
        id={ids.model}
        type="text"
        value={model}
        maxLength={300}
        disabled={disabled}
        placeholder="owner/name"
        aria-describedby={tried && empty ? ids.error : ids.hint}
        aria-invalid={tried && empty ? true : undefined}
        onChange={(event) => setModel(event.target.value)}
      />
      <p id={ids.hint} className="muted small">The run keeps its request and the edits that fit the new model, and is built again for it.</p>
      {tried && empty ? <p id={ids.error} className="field-error">Name the model to send the run to.</p> : null}
      <button type="button" className="button-secondary" disabled={disabled} onClick={submit}>Change model</button>
    </div>
  );
}

/** A text output as one editable text: an LLM's streamed tokens are joined, as the upstream app reads them. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return Array.isArray(output) ? output.filter((part) => typeof part === 'string').join('') : '';
}

/** Edit the provider's text before accepting it: the original is kept beside the edit, bound to the output shown. */
function EditText({ output, disabled, onAccept }: { output: unknown; disabled: boolean; onAccept: (text: string) => void }) {
  const original = outputText(output);
  const [text, setText] = useState(original);
  const ids = { text: useId(), hint: useId() };
  const unchanged = text === original;
  return (
    <div className="edit-text" data-testid="edit-text">
      <label htmlFor={ids.text}>Edit the text <span className="muted small">(what the app gets instead of the model's)</span></label>
      <textarea id={ids.text} rows={6} value={text} maxLength={200_000} disabled={disabled} aria-describedby={ids.hint} onChange={(event) => setText(event.target.value)} />
      <p id={ids.hint} className="muted small">The model's own output is kept beside your edit, and the result says which one the app got.</p>
      <button type="button" className="button-secondary" disabled={disabled || unchanged} onClick={() => onAccept(text)}>Accept edited text</button>
    </div>
  );
}
