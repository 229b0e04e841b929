import type { ValidationIssue } from '../api/types.ts';

/** Every issue at its field, with what to do about it. */
export function IssueList({ issues }: { issues: readonly ValidationIssue[] }) {
  if (issues.length === 0) return <p className="muted">No validation issues.</p>;
  return (
    <ul className="issues" aria-label="Validation issues">
      {issues.map((issue, index) => (
        <li key={`${issue.path}-${issue.code}-${index}`} className={`issue issue-${issue.severity}`}>
          <span className={`badge ${issue.severity === 'blocking' ? 'badge-block' : 'badge-warn'}`}>{issue.severity}</span>
          <code className="issue-path">{issue.path || '/'}</code>
          <span>{issue.message}</span>
          {issue.suggestion ? <div className="suggestion">Suggestion: {issue.suggestion}</div> : null}
        </li>
      ))}
    </ul>
  );
}
