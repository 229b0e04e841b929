import { ApiProblem } from '../api/client.ts';

/** An API error as the API said it: title, detail, code and field, never swallowed. */
export function ProblemBanner({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error.problem : { title: 'Something went wrong', status: 0, detail: String((error as Error)?.message ?? error) };
  return (
    <div className="banner banner-error" role="alert">
      <div>
        <strong>{problem.title}</strong>
        {problem.status ? <span className="muted"> · HTTP {problem.status}</span> : null}
        {problem.detail ? <p>{problem.detail}</p> : null}
        <p className="problem-meta">
          {problem.code ? <code>{problem.code}</code> : null}
          {problem.field ? <> field <code>{problem.field}</code></> : null}
        </p>
      </div>
      {onDismiss ? <button type="button" className="button-ghost" onClick={onDismiss}>Dismiss</button> : null}
    </div>
  );
}
