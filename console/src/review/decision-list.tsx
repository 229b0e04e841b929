import type { DecisionView } from '../api/types.ts';
import { actorText, labelOf, timeText } from '../ui/format.ts';
import { replyReading } from './reply-reading.ts';

/** The decisions on a review or run, oldest first: who, when, what, and how a chat reply was read. */
export function DecisionList({ decisions, title = 'Decisions' }: { decisions: DecisionView[]; title?: string }) {
  return (
    <section className="card" aria-labelledby="decisions-title">
      <h2 id="decisions-title">{title}</h2>
      <ol className="decisions">
        {decisions.map((d) => {
          const reply = typeof d.raw.text === 'string' ? d.raw.text : null;
          const reason = typeof d.raw.reason === 'string' ? d.raw.reason : null;
          return (
            <li key={d.id}>
              <div><strong>{labelOf(d.action)}</strong> by <span className="actor">{actorText(d.actor)}</span> · <time dateTime={d.at}>{timeText(d.at)}</time>{d.override ? <span className="badge badge-block">override</span> : null}</div>
              {reply ? <div>Chat reply: “{reply}” <span className="muted small" data-testid="reply-reading" title={JSON.stringify(d.parsed)}>read as {replyReading(d.parsed)}</span></div> : null}
              {reason ? <div className="muted">Reason: {reason}</div> : null}
              {d.edits && Object.keys(d.edits).length ? <div className="muted small">Edits: <code>{JSON.stringify(d.edits)}</code></div> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
