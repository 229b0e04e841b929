/**
 * The steps every builder shares: human edits first, schema defaults for what is left, then the payload
 * laid out in field order with the notes and confidence that depend on the whole. Builders differ only in
 * what they put between the edits and the defaults (phrases read from the prompt, an LLM's traced answer).
 */
import type { BuilderUsage, CandidatePayload, FieldProvenance, FieldSpec, RequestBundle, UnusedRequest } from '../generated/contracts.ts';
import { CONFIDENCE, payloadConfidence } from './confidence.ts';

/** One field's chosen value and where it came from. */
export interface FieldValue {
  value: unknown;
  provenance: FieldProvenance;
}

export type FieldValues = Map<string, FieldValue>;

/**
 * A person's edits win over everything a builder would choose. An edit naming no input of the model never
 * gets here through the pipeline (the build stage refuses the request first, src/stages/edit-targets.ts);
 * a caller that skips that check gets a note, and the edit stays out of the payload.
 */
export function applyHumanEdits(bundle: RequestBundle, fields: readonly FieldSpec[], values: FieldValues, notes: string[]): void {
  const known = new Set(fields.map((field) => field.name));
  for (const [name, value] of Object.entries(bundle.humanEdits)) {
    if (value === undefined) continue;
    if (!known.has(name)) {
      notes.push(`the edit to ${name} names no input of this model; left out`);
      continue;
    }
    values.set(name, { value, provenance: { source: 'human_edit', confidence: CONFIDENCE.humanEdit } });
  }
}

/**
 * Schema defaults for the fields still empty, except secrets, a model's own sample prompt, and a field the
 * published schema contradicts itself on (no value fits it, its default included: left out, the model uses
 * its own).
 */
export function applyDefaults(fields: readonly FieldSpec[], promptField: FieldSpec | undefined, values: FieldValues, notes: string[]): void {
  for (const field of fields) {
    if (values.has(field.name) || !field.hasDefault || field.role === 'secret') continue;
    if (field.unsatisfiable !== undefined) {
      notes.push(`${field.name} is left out: the model's published schema accepts no value for it (${field.unsatisfiable})`);
      continue;
    }
    // The model's own sample prompt is not what this user asked for; leaving it out lets a person see that.
    if (field === promptField && typeof field.default === 'string' && field.default.trim() !== '') {
      notes.push(`${field.name} has no value from the request; the model's default prompt was not used`);
      continue;
    }
    values.set(field.name, { value: field.default, provenance: { source: 'schema_default', confidence: CONFIDENCE.schemaDefault } });
  }
}

export interface FinishFacts {
  builder: string;
  /** Request phrases recognised but not placed (request-table.ts). */
  unusedRequest?: readonly UnusedRequest[];
  promptField: FieldSpec | undefined;
  attachmentsUsed: boolean;
  /** Values the user wrote that did not fit their field (they lower the confidence). */
  refused: readonly string[];
  /** The model has no prompt input and some of the request's text went nowhere (it lowers the confidence). */
  textUnplaced?: boolean;
  usage?: BuilderUsage;
}

/** Lays the values out in field order and works out the notes and confidence that depend on the whole. */
export function finishCandidate(fields: readonly FieldSpec[], values: ReadonlyMap<string, FieldValue>, notes: string[], facts: FinishFacts): CandidatePayload {
  const payload: Record<string, unknown> = {};
  const provenance: Record<string, FieldProvenance> = {};
  for (const field of fields) {
    const entry = values.get(field.name);
    if (!entry) continue;
    payload[field.name] = entry.value;
    provenance[field.name] = entry.provenance;
  }
  const missing = fields.filter((field) => field.required && !values.has(field.name));
  for (const field of missing) notes.push(`required field ${field.name} has no value; a person must supply it`);
  const sources = [...values.values()].map((entry) => entry.provenance.source);
  const fromRequest = sources.some((source) => source === 'user_prompt' || source === 'attachment' || source === 'human_edit');
  if (!fromRequest) notes.push('nothing in the request mapped to a model input');
  const confidence = payloadConfidence({
    fieldConfidences: [...values.values()].map((entry) => entry.provenance.confidence ?? 1),
    missingRequired: missing.length > 0,
    anythingFromRequest: fromRequest,
    promptMissing: facts.promptField !== undefined && !values.has(facts.promptField.name) && !facts.attachmentsUsed,
    valueRefused: facts.refused.length > 0,
    textUnplaced: facts.textUnplaced === true,
  });
  const unused = facts.unusedRequest ?? [];
  for (const item of unused) notes.push(`"${item.phrase}" is not in the payload: ${item.reason}`);
  return {
    payload, provenance, confidence, builder: facts.builder, notes,
    ...(facts.usage ? { usage: facts.usage } : {}),
    ...(unused.length > 0 ? { unusedRequest: unused.map((item) => ({ ...item })) } : {}),
  };
}
