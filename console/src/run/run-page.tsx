/**
 * A run: its timeline from the event stream (live), the request, the payload, decisions with their actors
 * (chat replies with how they were read), executions and the provider's output. Decided reviews open from
 * the timeline.
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client.ts';
import { followEvents } from '../api/sse.ts';
import type { RunState } from '../api/types.ts';
import { DecisionList } from '../review/decision-list.tsx';
import { MediaPreview } from '../review/widgets.tsx';
import { actorText, durationText, labelOf, timeText, valueText } from '../ui/format.ts';
import { Link } from '../ui/link.tsx';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { timelineOf } from './timeline.ts';

export function RunPage({ runId }: { runId: string }) {
  const [state, setState] = useState<RunState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(async () => {
    try {
      setState(await api<RunState>('GET', `/api/runs/${runId}/state`));
      setError(null);
    } catch (problem) {
      setError(problem);
    }
  }, [runId]);

  useEffect(() => {
    void load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stream = followEvents(`/api/runs/${runId}/events`, () => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(), 150);
    });
    return () => {
      clearTimeout(timer);
      stream.close();
    };
  }, [runId, load]);

  if (error && !state) return <ProblemBanner error={error} />;
  if (!state) return <p className="muted">Loading the run…</p>;
  const { run, request } = state;
  const timeline = timelineOf(state.events);
  const output = run.result?.output;

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb"><Link to={{ page: 'queue' }}>Queue</Link> <span aria-hidden="true">/</span> <span>Run {run.id.slice(0, 8)}</span></nav>
      <header className="card review-head">
        <div className="review-title">
          <h1>Run {run.id.slice(0, 8)}</h1>
          <div className="badges"><span className={`tag status-${run.status}`} data-testid="run-status">{labelOf(run.status)}</span><span className="tag">{run.model ?? 'inline model'}</span></div>
        </div>
        <dl className="facts">
          <div><dt>Created</dt><dd><time dateTime={run.createdAt}>{timeText(run.createdAt)}</time></dd></div>
          <div><dt>Total</dt><dd>{run.timings?.totalMs != null ? durationText(run.timings.totalMs) : 'in progress'}</dd></div>
          <div><dt>Builder · provider</dt><dd>{run.builder} · {run.provider}</dd></div>
          <div><dt>Policy</dt><dd>{run.policy.mode}</dd></div>
        </dl>
      </header>
      <ProblemBanner error={error} />
      {run.pendingReview ? (
        <div className="banner banner-info" role="status">Waiting for a person: <Link to={{ page: 'review', reviewId: run.pendingReview.reviewId }}>open the review</Link>.</div>
      ) : null}

      <div className="two-col">
        <section className="card" aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <ol className="timeline">
            {timeline.map((entry) => (
              <li key={entry.id} className={`timeline-${entry.type.split('.')[0]}`}>
                <div className="timeline-head">
                  <strong>{entry.title}</strong>
                  <span className="muted small">{entry.sincePreviousMs !== null ? `+${durationText(entry.sincePreviousMs)}` : timeText(entry.at)}{entry.durationMs !== null ? ` · took ${durationText(entry.durationMs)}` : ''}</span>
                </div>
                <div className="muted small">
                  {actorText(entry.actor)}{entry.detail ? ` · ${entry.detail}` : ''}
                  {entry.reviewId && (entry.type === 'review.created' || entry.type === 'review.decided') ? <> · <Link to={{ page: 'review', reviewId: entry.reviewId }}>review</Link></> : null}
                </div>
              </li>
            ))}
          </ol>
        </section>
        <section className="card" aria-labelledby="request-title">
          <h2 id="request-title">Request</h2>
          {request.prompt ? <blockquote className="prompt">{request.prompt}</blockquote> : null}
          {request.conversation?.length ? (
            <ol className="conversation" aria-label="Conversation">
              {request.conversation.map((turn, index) => <li key={index}><strong>{turn.role}:</strong> {turn.content}</li>)}
            </ol>
          ) : null}
          {request.attachments?.length ? (
            <ul className="attachments" aria-label="Attachments">
              {request.attachments.map((a) => <li key={a.url}><span>{a.name ?? a.url}</span> <MediaPreview url={a.url} label={a.name ?? 'attachment'} /></li>)}
            </ul>
          ) : null}
          {run.candidate ? (
            <>
              <h3>Payload</h3>
              <dl className="kv">
                {Object.entries(run.candidate.payload).map(([name, value]) => (
                  <div key={name}><dt><code>{name}</code></dt><dd>{valueText(value)} <span className="muted small">{run.candidate?.provenance[name]?.source ?? ''}</span></dd></div>
                ))}
              </dl>
            </>
          ) : null}
        </section>
      </div>

      {state.decisions.length ? <DecisionList decisions={state.decisions} title="Decisions and replies" /> : null}

      <section className="card" aria-labelledby="exec-title">
        <h2 id="exec-title">Executions and output</h2>
        {state.executions.length === 0 ? <p className="muted">Not executed yet.</p> : (
          <table className="plain-table">
            <thead><tr><th scope="col">Step</th><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Took</th></tr></thead>
            <tbody>
              {state.executions.map((e) => (
                <tr key={e.step}><td>{e.step}</td><td>{e.provider}{e.predictionId ? ` · ${e.predictionId}` : ''}</td><td>{e.status}</td><td>{timeText(e.startedAt)}</td><td>{e.finishedAt ? durationText(Date.parse(e.finishedAt) - Date.parse(e.startedAt)) : '—'}</td></tr>
              ))}
            </tbody>
          </table>
        )}
        {output !== undefined && output !== null ? <Output output={output} /> : null}
        {run.error ? <ProblemBanner error={{ message: `${run.error.code}: ${run.error.message}` }} /> : null}
      </section>
    </>
  );
}

function Output({ output }: { output: unknown }) {
  const urls = (Array.isArray(output) ? output : [output]).filter((v): v is string => typeof v === 'string' && /^https?:\/\//.test(v));
  return (
    <div className="output">
      <h3>Provider output</h3>
      {urls.length ? urls.map((url) => <MediaPreview key={url} url={url} label="output" />) : <pre className="json">{JSON.stringify(output, null, 2)}</pre>}
    </div>
  );
}
