/**
 * The model's published example beside the form, labelled as the example that was never used. Copying a value
 * from it puts the value in the form as the reviewer's own edit; the decision records it as an edit.
 */
import type { ReviewForm } from '../api/types.ts';
import { valueText } from '../ui/format.ts';

export function ExamplePanel({ example, fieldNames, onCopy, disabled }: { example: NonNullable<ReviewForm['example']>; fieldNames: Set<string>; onCopy: (field: string, value: unknown) => void; disabled: boolean }) {
  return (
    <section className="card example-panel" aria-labelledby="example-title">
      <h2 id="example-title">Published example <span className="tag tag-never">never used</span></h2>
      <p className="muted small">{example.note}</p>
      <dl className="example-list">
        {Object.entries(example.input).map(([name, value]) => (
          <div key={name} className="example-item">
            <dt><code>{name}</code></dt>
            <dd>
              <span className="value-text">{valueText(value)}</span>
              {fieldNames.has(name) ? (
                <button type="button" className="button-small" disabled={disabled} onClick={() => onCopy(name, value)} aria-label={`Copy to form: the example's ${name} (your edit)`}>
                  Copy to form
                </button>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
