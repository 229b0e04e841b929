/**
 * The console's pure readings: a task payload's field order and labels (from the type's schema, whose key order
 * jsonb does not keep), and a chat reply's reading on the run page.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replyReading } from '../../console/src/review/reply-reading.ts';
import { fieldLabel, orderedKeys, schemaOrder } from '../../console/src/tasks/payload-order.ts';
import { readOnlyUiSchema } from '../../console/src/tasks/task-form-ui.ts';

const lgv = JSON.parse(readFileSync('examples/task-types/lgv-troubleshooting.task-type.json', 'utf8')) as { schema: Record<string, Record<string, Record<string, unknown>>> };
/** The schema as PostgreSQL's jsonb hands it back: an object's keys shorter first, then by bytes. */
function asJsonb(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asJsonb);
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  return Object.fromEntries(keys.map((key) => [key, asJsonb((value as Record<string, unknown>)[key])]));
}

describe('task payload order and labels', () => {
  it('reads the required fields in the order the type lists them, then the others, whatever the key order', () => {
    const stored = asJsonb(lgv.schema) as typeof lgv.schema;
    expect(schemaOrder(stored)).toEqual(['issue', 'investigation', 'recommendation']);
    expect(schemaOrder(stored.properties?.recommendation)).toEqual(['proposed_next_action', 'expected_outcome']);
    expect(schemaOrder(stored.properties?.investigation)).toEqual(['what_checked', 'evidence', 'candidate_root_cause', 'services_connections_involved']);
    expect(schemaOrder(undefined)).toEqual([]);
  });

  it('puts fields the schema does not declare after the declared ones, and leaves out declared ones the payload lacks', () => {
    const schema = { type: 'object', required: ['b'], properties: { a: {}, b: {}, c: {} } };
    expect(orderedKeys({ extra: 1, c: 2, b: 3 }, schema)).toEqual(['b', 'c', 'extra']);
    expect(orderedKeys({ z: 1, y: 2 })).toEqual(['z', 'y']);
  });

  it("labels a field with the schema's title, else its name in words", () => {
    expect(fieldLabel('reported_symptom')).toBe('Reported symptom');
    expect(fieldLabel('candidateRootCause')).toBe('Candidate root cause');
    expect(fieldLabel('lgv_id', { title: 'LGV' })).toBe('LGV');
    expect(fieldLabel('__')).toBe('__');
  });
});

describe('the read-only task form', () => {
  it('orders and labels the fields as the readable view does, with long text in text areas and no list buttons', () => {
    type Ui = { [key: string]: Ui };
    const ui = readOnlyUiSchema(asJsonb(lgv.schema) as Record<string, unknown>) as unknown as Ui;
    expect(ui['ui:order']).toEqual(['issue', 'investigation', 'recommendation', '*']);
    expect(ui.recommendation).toMatchObject({ 'ui:title': 'Recommendation', 'ui:order': ['proposed_next_action', 'expected_outcome', '*'] });
    expect(ui.recommendation?.proposed_next_action).toMatchObject({ 'ui:title': 'Proposed next action', 'ui:widget': 'textarea' });
    // A short bounded string stays a one-line input; list items carry no label each.
    expect(ui.issue?.lgv_id).toEqual({ 'ui:title': 'Lgv id' });
    expect(ui.investigation?.what_checked?.items).toMatchObject({ 'ui:widget': 'textarea', 'ui:options': { label: false } });
    expect(ui['ui:globalOptions']).toEqual({ addable: false, removable: false, orderable: false, copyable: false });
  });
});

describe('chat reply reading', () => {
  it('says the decision, the layer and what the reply said', () => {
    expect(replyReading({ via: 'reply', layer: 'fast_path', decision: 'continue', reply: { approved: true } })).toBe('continue, by the fast path (yes)');
    expect(replyReading({ via: 'reply', layer: 'interpreter', decision: 'continue_with_modifications', reply: { modifications: { num_outputs: 2, aspect_ratio: '1:1' } } }))
      .toBe('continue with modifications, by the interpreter (changes num_outputs → 2, aspect_ratio → 1:1)');
    expect(replyReading({ via: 'reply', layer: 'fast_path', decision: 'continue', reply: { selected: ['a', 'b'] } })).toBe('continue, by the fast path (picked a, b)');
    expect(replyReading({ via: 'reply', layer: 'deterministic', decision: 'switch_intent' })).toBe('switch intent, by rule (a disambiguation no option matched)');
    expect(replyReading({})).toBe('no decision');
  });
});
