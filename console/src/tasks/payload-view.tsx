/**
 * A task's payload as a person reads it, whatever its type: fields in the order the type's schema lists them
 * (then any others), labelled with the schema's `title` or the field's name in words (`reported_symptom` →
 * "Reported symptom"), nested objects as titled sections, lists as lists, empty values said so. Text stays text:
 * nothing in a payload is rendered as HTML.
 */
import type { ReactNode } from 'react';
import { fieldLabel, objectOf, orderedKeys, type Schema } from './payload-order.ts';

function propertySchema(schema: Schema | undefined, key: string): Schema | undefined {
  return objectOf(objectOf(schema?.properties)?.[key]);
}

function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="muted">not given</span>;
  if (typeof value === 'boolean') return <>{value ? 'yes' : 'no'}</>;
  if (typeof value === 'string' && /^https?:\/\/\S+$/i.test(value)) return <a href={value} target="_blank" rel="noreferrer noopener">{value}</a>;
  return <span className="value-text">{typeof value === 'string' ? value : JSON.stringify(value)}</span>;
}

function Value({ value, schema }: { value: unknown; schema?: Schema }): ReactNode {
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    const items = objectOf(schema?.items);
    return (
      <ul className="payload-list">
        {value.map((item, index) => <li key={index}><Value value={item} schema={items} /></li>)}
      </ul>
    );
  }
  const object = objectOf(value);
  if (object) return <Fields value={object} schema={schema} />;
  return <Scalar value={value} />;
}

function Fields({ value, schema }: { value: Record<string, unknown>; schema?: Schema }) {
  const keys = orderedKeys(value, schema);
  if (keys.length === 0) return <span className="muted">empty</span>;
  return (
    <dl className="payload-fields">
      {keys.map((key) => {
        const inner = propertySchema(schema, key);
        return (
          <div key={key}>
            <dt>{fieldLabel(key, inner)}</dt>
            <dd><Value value={value[key]} schema={inner} /></dd>
          </div>
        );
      })}
    </dl>
  );
}

/** The payload: top-level objects as sections with a heading, everything else as labelled fields. */
export function PayloadView({ payload, schema }: { payload: Record<string, unknown>; schema?: Schema }) {
  const keys = orderedKeys(payload, schema);
  const sections = keys.filter((key) => objectOf(payload[key]));
  const loose = keys.filter((key) => !objectOf(payload[key]));
  return (
    <div className="payload-view">
      {loose.length ? <Fields value={Object.fromEntries(loose.map((key) => [key, payload[key]]))} schema={schema} /> : null}
      {sections.map((key) => {
        const inner = propertySchema(schema, key);
        return (
          <section key={key} className="payload-section">
            <h3>{fieldLabel(key, inner)}</h3>
            <Fields value={payload[key] as Record<string, unknown>} schema={inner} />
          </section>
        );
      })}
    </div>
  );
}
