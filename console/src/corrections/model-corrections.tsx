/** One model's corrections: a row per field, most edited first, with its changes, issue codes and weekly edits. */
import type { CorrectionsReport } from '../api/types.ts';
import { valueText } from '../ui/format.ts';

type ModelCorrections = CorrectionsReport['models'][number];
type FieldCorrections = ModelCorrections['fields'][number];

export function ModelCorrectionsCard({ model }: { model: ModelCorrections }) {
  const titleId = `corrections-${model.model.replace(/[^a-z0-9]/gi, '-')}`;
  return (
    <section className="card" aria-labelledby={titleId} data-testid="model-corrections">
      <h2 id={titleId}>{model.model} <span className="muted small">{model.corrected} of {model.decisions} decisions corrected</span></h2>
      {model.fields.length === 0 ? <p className="muted">Nobody changed a field.</p> : (
        <table className="plain-table">
          <thead><tr><th scope="col">Field</th><th scope="col">Edited</th><th scope="col">Most frequent changes</th><th scope="col">Issues shown</th><th scope="col">Per week</th></tr></thead>
          <tbody>
            {model.fields.map((field) => (
              <tr key={field.field}>
                <th scope="row"><code>{field.field}</code>{field.kind !== 'value' ? <span className="tag">{field.kind === 'secret' ? 'secret' : 'free text'}</span> : null}</th>
                <td>{field.edits} <span className="muted small">({Math.round(field.share * 100)}%)</span></td>
                <td><Changes field={field} /></td>
                <td>{field.issueCodes.map((issue) => <span key={issue.code} className="tag">{issue.code} ×{issue.count}</span>)}</td>
                <td><WeekBars weeks={field.weeks} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Changes({ field }: { field: FieldCorrections }) {
  return (
    <ul className="plain-list">
      {field.changes.slice(0, 3).map((change, index) => (
        <li key={index}>
          {change.change ? change.change : <><code>{change.from === undefined ? 'unset' : valueText(change.from)}</code> → <code>{change.to === undefined ? 'removed' : valueText(change.to)}</code></>}
          <span className="muted small"> ×{change.count}</span>
        </li>
      ))}
    </ul>
  );
}

/** Edits per week as small bars (oldest left), each titled with its week and count. */
function WeekBars({ weeks }: { weeks: FieldCorrections['weeks'] }) {
  const most = Math.max(1, ...weeks.map((week) => week.count));
  return (
    <svg className="week-bars" width={weeks.length * 8} height={24} role="img" aria-label={weeks.map((week) => `${week.week}: ${week.count}`).join(', ')}>
      {weeks.map((week, index) => {
        const height = Math.max(2, Math.round((week.count / most) * 22));
        return <rect key={week.week} x={index * 8} y={24 - height} width={6} height={height}><title>{`${week.week}: ${week.count}`}</title></rect>;
      })}
    </svg>
  );
}
