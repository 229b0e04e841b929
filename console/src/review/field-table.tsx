/**
 * Each field's provenance (user, attachment, edit, default, builder) and its diff against the schema default,
 * for the values in the form as they stand (a field the reviewer changed shows as their edit).
 */
import type { FieldReview } from '../api/types.ts';
import { valueText } from '../ui/format.ts';

const SOURCE_LABELS: Record<string, string> = {
  user_prompt: 'user',
  attachment: 'attachment',
  human_edit: 'edit',
  schema_default: 'default',
  inferred: 'builder',
};

export function sourceLabel(source: string | undefined): string {
  return source ? (SOURCE_LABELS[source] ?? source) : '—';
}

export function FieldTable({ fields, draft, edited, copied }: { fields: FieldReview[]; draft: Record<string, unknown>; edited: Set<string>; copied: Set<string> }) {
  return (
    <div className="table-wrap" role="region" aria-label="Fields, scrollable" tabIndex={0}>
      <table className="field-table" aria-label="Where every value came from">
        <thead>
          <tr><th scope="col">Field</th><th scope="col">Value</th><th scope="col">Source</th><th scope="col">Schema default</th></tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const mine = edited.has(f.field);
            const value = mine ? draft[f.field] : f.value;
            const changed = mine ? !f.hasDefault || JSON.stringify(f.default) !== JSON.stringify(value) : f.changed;
            const source = mine ? 'human_edit' : f.provenance?.source;
            return (
              <tr key={f.field} data-field={f.field} className={changed ? 'changed' : undefined}>
                <th scope="row"><code>{f.field}</code>{f.required ? <span className="muted small"> required</span> : null}</th>
                <td className="value-cell">
                  {changed ? <span className="diff-mark" title="differs from the schema default">±</span> : null}
                  <span className="value-text">{valueText(value ?? undefined)}</span>
                </td>
                <td>
                  <span className={`source source-${source ?? 'none'}`}>{sourceLabel(source)}</span>
                  {mine ? <span className="muted small"> {copied.has(f.field) ? '(yours, copied from the example)' : '(yours, not saved yet)'}</span> : null}
                  {!mine && f.provenance?.evidence ? <div className="muted small clamp" title={f.provenance.evidence}>“{f.provenance.evidence}”</div> : null}
                </td>
                <td>{f.hasDefault ? <code>{valueText(f.default)}</code> : <span className="muted">none</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
