/**
 * The countdown auto-approval: with nothing blocking and a policy that allows it, the card counts down and then
 * approves; the reviewer can cancel (and review by hand) or approve at once. The count is kept in ticks of a
 * one-second interval, not read from the wall clock, so it pauses with the page's timers.
 */
import { useEffect, useRef, useState } from 'react';

export function Countdown({ seconds, onElapsed, onCancel, onApproveNow }: { seconds: number; onElapsed: () => void; onCancel: () => void; onApproveNow: () => void }) {
  const [left, setLeft] = useState(seconds);
  const elapsed = useRef(onElapsed);
  elapsed.current = onElapsed;
  useEffect(() => {
    const timer = setInterval(() => setLeft((n) => n - 1), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left <= 0) elapsed.current();
  }, [left]);
  return (
    <div className="banner banner-info countdown" role="timer" aria-live="off" aria-label="Auto-approval countdown">
      <div>
        <strong>No feedback required.</strong> Nothing blocks this payload, and its policy allows auto-approval.
        <p>Approving in <span className="countdown-seconds" data-testid="countdown-seconds">{Math.max(0, left)}</span> s.</p>
      </div>
      <div className="button-row">
        <button type="button" className="button-secondary" onClick={onCancel}>Cancel countdown</button>
        <button type="button" className="button-primary" onClick={onApproveNow}>Approve now</button>
      </div>
    </div>
  );
}
