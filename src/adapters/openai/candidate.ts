/**
 * The openai builder's CandidatePayload from the LLM's decoded answer. Precedence, first wins per field:
 *  1. human edits (`bundle.humanEdits`) for fields the schema has: a person's word beats the LLM's;
 *  2. the LLM's values, each traced to its source (provenance-trace.ts), except for secret fields, which only
 *     a person sets (the heuristic builder keeps the same rule);
 *  3. the schema's own defaults, except for secrets and a non-empty default prompt (the model's sample
 *     prompt is not what this user asked for).
 * A required field left without a value stays out; the validator reports it and a person decides.
 */
import { applyDefaults, applyHumanEdits, finishCandidate, type FieldValue } from '../../builders/candidate-assembly.ts';
import { orderedFields, userPromptField } from '../../builders/field-vocabulary.ts';
import type { BuilderUsage, CandidatePayload, FieldSpec, ModelSchema, RequestBundle } from '../../generated/contracts.ts';
import { collectBundleEvidence } from '../../stages/bundle-evidence.ts';
import { OPENAI_BUILDER_NAME } from './names.ts';
import { traceProvenance } from './provenance-trace.ts';

export interface CandidateInput {
  /** The LLM's values by field name, nulls already removed (strict-answer.ts). */
  answer: Readonly<Record<string, unknown>>;
  bundle: RequestBundle;
  schema: ModelSchema;
  usage: BuilderUsage;
}

export function assembleCandidate({ answer, bundle, schema, usage }: CandidateInput): CandidatePayload {
  const fields = orderedFields(schema);
  const values = new Map<string, FieldValue>();
  const notes: string[] = [];
  applyHumanEdits(bundle, fields, values, notes);
  applyAnswer(answer, bundle, fields, values, notes);
  const promptField = userPromptField(fields);
  applyDefaults(fields, promptField, values, notes);

  const attachmentsUsed = [...values.values()].some((entry) => entry.provenance.source === 'attachment');
  return finishCandidate(fields, values, notes, { builder: OPENAI_BUILDER_NAME, promptField, attachmentsUsed, refused: [], usage });
}

function applyAnswer(
  answer: Readonly<Record<string, unknown>>,
  bundle: RequestBundle,
  fields: readonly FieldSpec[],
  values: Map<string, FieldValue>,
  notes: string[],
): void {
  const evidence = collectBundleEvidence(bundle);
  const inferred: string[] = [];
  for (const field of fields) {
    if (!Object.hasOwn(answer, field.name)) continue;
    const value = answer[field.name];
    if (values.has(field.name)) {
      notes.push(`${field.name}: the human edit overrides the LLM's answer`);
      continue;
    }
    if (field.role === 'secret') {
      notes.push(`${field.name} is a secret; the LLM's value was dropped (only a person sets secrets)`);
      continue;
    }
    if (field.unsatisfiable !== undefined) {
      // No value passes the published schema: only the request (an edit) may set it, and then a person decides.
      notes.push(`${field.name}: the LLM's value was dropped; the model's published schema accepts none (${field.unsatisfiable})`);
      continue;
    }
    const provenance = traceProvenance(value, field, evidence, bundle);
    if (provenance.source === 'inferred') inferred.push(field.name);
    values.set(field.name, { value, provenance });
  }
  if (inferred.length > 0) notes.push(`the LLM chose ${inferred.join(', ')} without support in the request; check them`);
}
